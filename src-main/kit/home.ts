// The temporary HOME a test's app gets (the kit's `isolateHome`, and always the desktop app's): one layout for the kit
// and for anything that must share the app's data, e.g. a CLI run beside it.
import { join } from 'node:path';

export type HomeVariable = 'HOME' | 'XDG_CONFIG_HOME' | 'XDG_DATA_HOME' | 'XDG_STATE_HOME' | 'XDG_CACHE_HOME';

/** HOME and the XDG folders under a test's folder `root` (HOME is `root/home`). */
export function homeFolders(root: string): Record<HomeVariable, string> {
  const home = join(root, 'home');
  return {
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
    XDG_CACHE_HOME: join(home, '.cache'),
  };
}
