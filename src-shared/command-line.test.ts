import { describe, expect, it } from 'vitest';
import { splitCommandLine } from './command-line';

describe('splitCommandLine', () => {
  it('splits on runs of whitespace', () => {
    expect(splitCommandLine('npx -y @modelcontextprotocol/server-everything')).toEqual(['npx', '-y', '@modelcontextprotocol/server-everything']);
    expect(splitCommandLine('  uvx\tmcp-server-git   --repository  .  ')).toEqual(['uvx', 'mcp-server-git', '--repository', '.']);
  });

  it('gives no words for an empty or blank line', () => {
    expect(splitCommandLine('')).toEqual([]);
    expect(splitCommandLine(' \t ')).toEqual([]);
  });

  it('keeps a quoted path with spaces as one word, quotes removed', () => {
    expect(splitCommandLine('"/Applications/My App/server" --port 3')).toEqual(['/Applications/My App/server', '--port', '3']);
    expect(splitCommandLine("'/opt/my tools/srv'")).toEqual(['/opt/my tools/srv']);
    expect(splitCommandLine('--name="a b"c')).toEqual(['--name=a bc']);
  });

  it('keeps an empty quoted argument', () => {
    expect(splitCommandLine('prog "" \'\' x')).toEqual(['prog', '', '', 'x']);
  });

  it('single quotes are literal; double quotes let a backslash escape " \\ $ `', () => {
    expect(splitCommandLine(`echo 'a\\"b $HOME'`)).toEqual(['echo', 'a\\"b $HOME']);
    expect(splitCommandLine('echo "a\\"b \\\\ \\$x \\n"')).toEqual(['echo', 'a"b \\ $x \\n']);
  });

  it('outside quotes a backslash escapes whitespace, quotes and itself, and is kept before anything else', () => {
    expect(splitCommandLine('/opt/my\\ tools/srv --x')).toEqual(['/opt/my tools/srv', '--x']);
    expect(splitCommandLine('a\\"b a\\\'b a\\\\b')).toEqual(['a"b', "a'b", 'a\\b']);
    expect(splitCommandLine('C:\\tools\\server.exe --flag')).toEqual(['C:\\tools\\server.exe', '--flag']);
  });

  it('joins lines ended by a backslash and treats other newlines as whitespace', () => {
    expect(splitCommandLine('npx -y \\\n  @modelcontextprotocol/server-everything \\\r\n  --x\ny')).toEqual([
      'npx',
      '-y',
      '@modelcontextprotocol/server-everything',
      '--x',
      'y',
    ]);
  });

  it('passes unicode through, quoted or not', () => {
    expect(splitCommandLine('node 服务器.mjs "名字 带空格" --emoji=🚀 \'ü\'')).toEqual(['node', '服务器.mjs', '名字 带空格', '--emoji=🚀', 'ü']);
  });

  it('does not interpret variables, globs or operators', () => {
    expect(splitCommandLine('srv $HOME *.json && x | y')).toEqual(['srv', '$HOME', '*.json', '&&', 'x', '|', 'y']);
  });

  it('is undefined for an unclosed quote', () => {
    expect(splitCommandLine('node "server.mjs')).toBeUndefined();
    expect(splitCommandLine("node 'x")).toBeUndefined();
  });

  it('a trailing lone backslash stays', () => {
    expect(splitCommandLine('a \\')).toEqual(['a', '\\']);
  });
});
