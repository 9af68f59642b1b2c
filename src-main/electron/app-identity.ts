import { join } from 'node:path';
import { app } from 'electron';
import { dataDirFromArgv } from './locations';

/**
 * Imported first by main.ts, for its side effect: the app's name and its userData folder
 * (`<appData>/Switchboard`, e.g. ~/.config/Switchboard) are fixed before any module reads either.
 * `package.json`'s name is lowercase, so without this the folder would depend on how Electron was launched.
 * `--data-dir DIR` on the command line puts it elsewhere (a test's or QA run's own folder).
 */
export const appName = 'Switchboard';

app.setName(appName);
app.setPath('userData', dataDirFromArgv(process.argv, process.cwd()) ?? join(app.getPath('appData'), appName));
