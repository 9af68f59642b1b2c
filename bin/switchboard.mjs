#!/usr/bin/env node
// `switchboard` when installed: the same CLI as `npm run -s cli --`, run from its TypeScript source through tsx.
import { register } from 'tsx/esm/api';

register();
await import('../src-main/cli/main.ts');
