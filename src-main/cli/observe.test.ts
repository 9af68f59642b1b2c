// The CLI's `--trace FILE` sink redacts what the store holds now: a value another process stored (or changed) is
// redacted once this process's store has read the file again (as the host's trace does at least once a second).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { secretsFileOf } from '../core/support/paths';
import { FileSecretStore } from '../core/secrets/store';
import { tempDir } from '../test-support/processes';
import { traceSink } from './observe';

describe('traceSink', () => {
  it('follows the secret store’s changes, its own and another process’s', () => {
    const dataDir = tempDir();
    const file = join(dataDir, 'trace.jsonl');
    const ours = new FileSecretStore(secretsFileOf(dataDir));
    const other = new FileSecretStore(secretsFileOf(dataDir));
    ours.set('first', 'first-value-0001');
    const sink = traceSink(file, dataDir, ours);
    // Each message written out before the next change (the writer redacts as it writes).
    const note = (text: string, id: number): void => {
      sink.message('s', 'send', { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: { text } } });
      sink.flush();
    };
    note('first-value-0001', 1);
    other.set('second', 'second-value-0002');
    expect(ours.list()).toEqual(['first', 'second']); // this process reads the file again
    note('second-value-0002', 2);
    ours.set('third', 'third-value-0003');
    note('third-value-0003', 3);
    sink.dispose();
    const written = readFileSync(file, 'utf8');
    expect(written.trim().split('\n')).toHaveLength(3);
    for (const value of ['first-value-0001', 'second-value-0002', 'third-value-0003']) expect(written).not.toContain(value);
    expect(written.match(/<redacted>/g)).toHaveLength(3);
  });
});
