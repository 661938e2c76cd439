// Builds the commerce ports over a slice's store: what the service hands the engine as `ports`.
import type { StepStore } from '../../engine/step-store.js';
import type { CommercePorts } from '../ports/commerce-ports.js';
import { cataloguePort, orderLinesPort, settingsPort } from './shared-step-ports.js';

export function commerceStepPorts(store: StepStore): CommercePorts {
  return {
    settings: settingsPort(store),
    catalogue: cataloguePort(store),
    orderLines: orderLinesPort(store),
  };
}
