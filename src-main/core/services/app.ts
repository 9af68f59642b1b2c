import type { AppInfo, HostMethods } from '../../../src-shared/host-api';
import { configErrorData, type ConfigStore } from '../config/store';
import type { SecretStore } from '../secrets/store';

export type AppChannel = 'app:info' | 'shell:open';

export interface AppServiceOptions {
  mode: 'electron' | 'headless';
  configPath: string;
  logsDir: string;
  store: ConfigStore;
  secrets: SecretStore;
  /** Opens a file or folder in the OS (the desktop shell provides it; headless has none). */
  openPath?: ((path: string) => Promise<boolean>) | undefined;
}

/** What the app is and where its files are; opening them in the OS. */
export class AppService {
  readonly api: Pick<HostMethods, AppChannel>;

  constructor(private readonly options: AppServiceOptions) {
    this.api = {
      'app:info': async () => this.info(),
      'shell:open': async (target) => {
        const path = target === 'config' ? options.configPath : options.logsDir;
        const opened = options.openPath ? await options.openPath(path) : false;
        return { opened, path };
      },
    };
  }

  info(): AppInfo {
    const { store, secrets } = this.options;
    const error = store.snapshot().error;
    const where = error ? { file: error.file, line: error.line, column: error.column } : undefined;
    return {
      version: '0.1.0',
      mode: this.options.mode,
      configPath: this.options.configPath,
      logsDir: this.options.logsDir,
      ...(error && where ? { configError: { code: 'config-invalid', message: error.message, data: { ...configErrorData(error), ...where } } } : {}),
      ...(error && where ? { configProblem: { ...where, message: error.detail, ...(error.info ? { info: error.info } : {}) } } : {}),
      secrets: {
        backing: secrets.backing,
        ...(secrets.warning ? { warning: secrets.warning } : {}),
        ...(secrets.backing === 'file' && secrets.location !== undefined ? { file: secrets.location } : {}),
      },
    };
  }
}
