/*
 * The layers of DESIGN §1, kept by the linter: the renderer and the contract never reach into the main process;
 * only src-main/electron and src-preload load Electron (its binary cannot be had on every machine); the core is
 * plain Node that the shells (electron, headless, cli) wire up, never the other way round.
 */
const electronOnly = [
  { name: 'electron', message: 'Only src-main/electron and src-preload import electron: the core, CLI and headless mode run under plain Node.' },
  { name: 'electron-store', message: 'electron-store belongs to src-main/electron; elsewhere use the core settings store.' },
];
const layer = (regex, message) => ({ regex, message });
const toMain = layer('(^|/)src-main(/|$)', 'The renderer and src-shared talk to the main process only through the HostApi contract in src-shared.');
const toRenderer = layer('(^|/)src-renderer(/|$)', 'Only the renderer imports src-renderer.');
const toShells = layer(
  '\\.\\./(electron|cli|headless)(/|$)',
  'The core does not import its shells (electron, cli, headless): they wire the core, not the other way round.',
);
const toElectronShell = layer('\\.\\./electron/', 'Only src-main/electron imports its own files.');
const toCli = layer('\\.\\./cli/', 'Headless mode does not import the CLI; the CLI starts headless mode.');
const nodeBuiltins = layer('^node:', 'src-shared and the renderer run in a browser too: no Node built-ins.');
const testFiles = ['**/*.test.ts', '**/*.test.tsx', 'src-main/test-support/**'];

export const boundaries = [
  {
    files: ['src-renderer/**/*.{ts,tsx}'],
    ignores: testFiles,
    rules: { 'no-restricted-imports': ['error', { paths: electronOnly, patterns: [toMain, nodeBuiltins] }] },
  },
  {
    files: ['src-shared/**/*.ts'],
    ignores: testFiles,
    rules: { 'no-restricted-imports': ['error', { paths: electronOnly, patterns: [toMain, toRenderer, nodeBuiltins] }] },
  },
  {
    files: ['src-main/core/**/*.ts'],
    ignores: testFiles,
    rules: { 'no-restricted-imports': ['error', { paths: electronOnly, patterns: [toRenderer, toShells] }] },
  },
  {
    files: ['src-main/cli/**/*.ts'],
    ignores: testFiles,
    rules: { 'no-restricted-imports': ['error', { paths: electronOnly, patterns: [toRenderer, toElectronShell] }] },
  },
  {
    files: ['src-main/headless/**/*.ts'],
    ignores: testFiles,
    rules: { 'no-restricted-imports': ['error', { paths: electronOnly, patterns: [toRenderer, toElectronShell, toCli] }] },
  },
];
