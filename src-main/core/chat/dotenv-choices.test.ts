import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test-support/processes';
import { DotenvChoices } from './dotenv-choices';

describe('dotenv-choices.json', () => {
  it('two hosts confirming on one data folder keep each other’s confirmations', () => {
    const file = join(tempDir(), 'dotenv-choices.json');
    const first = new DotenvChoices(file);
    const second = new DotenvChoices(file);
    first.confirm('/repo/a/.env', { SWITCHBOARD_MODEL: 'ollama:llama3.2' });
    second.confirm('/repo/b/.env', { OLLAMA_BASE_URL: 'http://127.0.0.1:11434' });

    const after = new DotenvChoices(file);
    expect(after.confirmed('/repo/a/.env', 'SWITCHBOARD_MODEL', 'ollama:llama3.2')).toBe(true);
    expect(after.confirmed('/repo/b/.env', 'OLLAMA_BASE_URL', 'http://127.0.0.1:11434')).toBe(true);
  });
});
