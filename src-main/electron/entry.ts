// The main process's entry: decides, before app identity, the single-instance lock or any window, whether this
// process is the app or one of its bundled scripts (`--switchboard-run-script`, see core/process/run-script.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { app } from 'electron';
import { calculatorPath } from '../core/support/paths';
import { dispatchRunScript } from '../core/process/run-script';

let scratch: string | undefined;
const cleanUp = (): void => {
  if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
};

const ranScript = await dispatchRunScript(process.argv, {
  resourcesDir: dirname(calculatorPath()),
  prepare: () => {
    // No window, no dock icon, no GPU process.
    app.dock?.hide();
    app.disableHardwareAcceleration();
    // A second browser process must not share the running app's userData (Local State, caches): a scratch folder.
    scratch = mkdtempSync(join(app.getPath('temp'), 'switchboard-script-'));
    app.setPath('userData', scratch);
    app.setPath('sessionData', scratch);
    app.on('quit', cleanUp);
  },
  // Electron's main process does not exit when the script is done: the client closing stdin ends it.
  exit: (code) => {
    cleanUp();
    app.exit(code);
  },
});

// Top-level await: Electron emits `ready` only once the entry has settled, so the app's start-up code that must
// run before `ready` (app identity, the single-instance lock) still does.
if (!ranScript) (await import('./main')).runApp(import.meta.url);
