// `{ ok: true }`: the answer of a command that has nothing else to say, one named schema for every feature.
import { z } from 'zod';

export const okSchema = z.object({ ok: z.literal(true) }).meta({ id: 'Ok', description: 'The command was carried out' });
