// Port `settings`: the workspace's commerce settings (rates, tax, return window, fraud threshold, HTTP adapters) as a step reads them.
import type { CommerceSettings } from '../workspace-settings.js';

export interface SettingsPort {
  /** The workspace's commerce settings at the slice's reference version. */
  read(): Promise<CommerceSettings>;
}
