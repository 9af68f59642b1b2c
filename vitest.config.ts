import { configDefaults, defineConfig } from 'vitest/config';

// The QA kit's outside test needs the build, which the unit run comes before: `npm run test:kit` runs it after the
// build (SWITCHBOARD_KIT_TEST=1); the unit run leaves it out rather than counting it as skipped.
const kitRun = process.env.SWITCHBOARD_KIT_TEST === '1';

export default defineConfig({
  test: {
    include: ['src-*/**/*.test.ts', 'src-*/**/*.test.tsx', 'conformance/**/*.test.ts'],
    exclude: [...configDefaults.exclude, ...(kitRun ? [] : ['src-main/kit/kit-pack.test.ts'])],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
