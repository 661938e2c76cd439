// The feature modules of the service, in start order (each file registers its own routes).
import type { ServiceModule } from './service-module.js';

export const serviceModules: ServiceModule[] = [];
