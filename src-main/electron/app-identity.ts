import { join } from 'node:path';
import { app } from 'electron';

/**
 * Imported first by main.ts, for its side effect: the app's name and its userData folder
 * (`<appData>/Switchboard`, e.g. ~/.config/Switchboard) are fixed before any module reads either.
 * `package.json`'s name is lowercase, so without this the folder would depend on how Electron was launched.
 */
export const appName = 'Switchboard';

app.setName(appName);
app.setPath('userData', join(app.getPath('appData'), appName));
