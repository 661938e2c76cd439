// Port `settings` in a simulation: the workspace's commerce settings as the snapshot read them.
import type { SettingsPort } from '../ports/settings-port.js';
import type { SimulatedLedger } from './simulated-ledger.js';

export function simulatedSettingsPort(ledger: SimulatedLedger): SettingsPort {
  return { read: () => Promise.resolve(ledger.settings) };
}
