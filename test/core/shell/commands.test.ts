// Tests for the command flattener: what runs, after wrappers, and where it came from.
import { describe, expect, it } from 'vitest';
import { analyzeCommand, commandsForMatching } from '../../../src/core/shell/commands.js';

/** [source, an entry commandsForMatching must contain] */
const NORMALIZATION: ReadonlyArray<readonly [string, string]> = [
  ['gh issue close 123', 'gh issue close 123'],
  ['GH_TOKEN=x gh issue close 123', 'gh issue close 123'],
  ['env VAR=x gh issue close 1', 'gh issue close 1'],
  ['env -i -u HOME VAR=x OTHER=y gh issue close 1', 'gh issue close 1'],
  ['echo y | gh issue close 123', 'gh issue close 123'],
  ['bash -c "gh issue close 123"', 'gh issue close 123'],
  ["sh -c 'gh issue close 123'", 'gh issue close 123'],
  ["zsh -lc 'gh issue close 123'", 'gh issue close 123'],
  ["dash -e -c 'gh issue close 123'", 'gh issue close 123'],
  ["bash -o pipefail -c 'gh issue close 123'", 'gh issue close 123'],
  ['true && command gh issue close 1', 'gh issue close 1'],
  ['command -p gh issue close 1', 'gh issue close 1'],
  ['exec gh issue close 1', 'gh issue close 1'],
  ['builtin echo hi', 'echo hi'],
  ['nohup gh issue close 1 &', 'gh issue close 1'],
  ['time gh issue close 1', 'gh issue close 1'],
  ['nice -n 10 gh issue close 1', 'gh issue close 1'],
  ['nice -5 gh issue close 1', 'gh issue close 1'],
  ['timeout 30 gh issue close 1', 'gh issue close 1'],
  ['timeout -s KILL -k 5 30s gh issue close 1', 'gh issue close 1'],
  ['timeout --signal=TERM 30 gh issue close 1', 'gh issue close 1'],
  ['sudo gh issue close 1', 'gh issue close 1'],
  ['sudo -u bob -H gh issue close 1', 'gh issue close 1'],
  ['sudo -- gh issue close 1', 'gh issue close 1'],
  ['doas gh issue close 1', 'gh issue close 1'],
  ['echo 1 | xargs gh issue close', 'gh issue close 1'],
  ['echo 1 | xargs -n 1 -P4 gh issue close', 'gh issue close 1'],
  ['ls | xargs gh issue close', 'gh issue close'],
  ["eval 'gh issue close 1'", 'gh issue close 1'],
  ['eval gh issue close 1', 'gh issue close 1'],
  ['x=$(gh issue close 1)', 'gh issue close 1'],
  ['echo `gh issue close 1`', 'gh issue close 1'],
  ['echo "$(gh issue close 1)"', 'gh issue close 1'],
  ['(gh issue close 1)', 'gh issue close 1'],
  ['{ gh issue close 1; }', 'gh issue close 1'],
  ['if true; then gh issue close 1; fi', 'gh issue close 1'],
  ['if gh issue close 1; then :; fi', 'gh issue close 1'],
  ['while true; do gh issue close 1; done', 'gh issue close 1'],
  ['for i in 1 2; do gh issue close $i; done', 'gh issue close $i'],
  ['case x in x) gh issue close 1;; esac', 'gh issue close 1'],
  ['f() { gh issue close 1; }; f', 'gh issue close 1'],
  ['false || gh issue close 1', 'gh issue close 1'],
  ['ls; gh issue close 1', 'ls'],
  ['/usr/local/bin/gh issue close 1', 'gh issue close 1'],
  ['/usr/local/bin/gh issue close 1', '/usr/local/bin/gh issue close 1'],
  ['g\\h issue \'close\' "1"', 'gh issue close 1'],
  ['sudo bash -c "env A=1 gh issue close 1"', 'gh issue close 1'],
  ['bash -c "sh -c \'gh issue close 1\'"', 'gh issue close 1'],
  ['find . -name x -exec gh issue close {} \\;', 'gh issue close {}'],
  ['bash <<EOF\ngh issue close 1\nEOF', 'gh issue close 1'],
  ["bash <<< 'gh issue close 1'", 'gh issue close 1'],
  ["su -c 'gh issue close 1' bob", 'gh issue close 1'],
  ['busybox rm -rf x', 'rm -rf x'],
  ['diff <(gh issue list) b', 'gh issue list'],
  ['watch -n 60 gh issue close 1', 'gh issue close 1'],
  ['stdbuf -oL gh issue close 1', 'gh issue close 1'],
  ['ionice -c3 gh issue close 1', 'gh issue close 1'],
  ['setsid gh issue close 1', 'gh issue close 1'],
  ['[[ -n $(gh issue close 1) ]]', 'gh issue close 1'],
  ['echo ${x:-$(gh issue close 1)}', 'gh issue close 1'],
  ['cat <<EOF\n$(gh issue close 1)\nEOF', 'gh issue close 1'],
];

describe('commandsForMatching', () => {
  it.each(NORMALIZATION)('%j yields %j', (source, expected) => {
    expect(commandsForMatching(source)).toContain(expected);
  });

  it('does not unwrap lookups that run nothing', () => {
    expect(commandsForMatching('command -v gh')).toEqual(['command -v gh']);
    expect(commandsForMatching('sudo -l')).toEqual(['sudo -l']);
    expect(commandsForMatching('env')).toEqual(['env']);
  });

  it('does not treat quoted text as a command', () => {
    expect(commandsForMatching('echo "gh issue close 1"')).toEqual(['echo gh issue close 1']);
    expect(commandsForMatching('grep -r "rm -rf /" .')).toEqual(['grep -r rm -rf / .']);
  });

  it('lists a script file run by a shell as the shell itself', () => {
    expect(commandsForMatching('bash deploy.sh')).toEqual(['bash deploy.sh']);
  });

  it('skips bare assignments and redirections', () => {
    expect(commandsForMatching('A=1; > f')).toEqual([]);
  });
});

describe('analyzeCommand', () => {
  it('keeps argv, dynamic and glob flags parallel', () => {
    const [cmd] = analyzeCommand('rm -f "$DIR"/x *.log \'*.txt\' ~/y').commands;
    expect(cmd?.argv).toEqual(['rm', '-f', '$DIR/x', '*.log', '*.txt', '~/y']);
    expect(cmd?.dynamic).toEqual([false, false, true, false, false, false]);
    expect(cmd?.glob).toEqual([false, false, false, true, false, false]);
  });

  it('records prefix assignments and redirects', () => {
    const [cmd] = analyzeCommand('A=1 B="$x" make 2>&1 >out.log <in').commands;
    expect(cmd?.assignments).toEqual([
      { name: 'A', value: '1', dynamic: false },
      { name: 'B', value: '$x', dynamic: true },
    ]);
    expect(cmd?.redirects).toEqual([
      { op: '>&', fd: 2, target: '1', dynamic: false, glob: false },
      { op: '>', target: 'out.log', dynamic: false, glob: false },
      { op: '<', target: 'in', dynamic: false, glob: false },
    ]);
  });

  it('records env/sudo assignments and wrappers', () => {
    const [cmd] = analyzeCommand('sudo -E env FOO=bar nice rm x').commands;
    expect(cmd?.argv).toEqual(['rm', 'x']);
    expect(cmd?.wrappers).toEqual(['sudo', 'env', 'nice']);
    expect(cmd?.sudo).toBe(true);
    expect(cmd?.assignments).toEqual([{ name: 'FOO', value: 'bar', dynamic: false }]);
  });

  it('propagates sudo into a shell body', () => {
    const cmds = analyzeCommand("sudo sh -c 'rm -rf /tmp/x; ls'").commands;
    expect(cmds.map((c) => [c.argv.join(' '), c.sudo, c.depth])).toEqual([
      ['rm -rf /tmp/x', true, 1],
      ['ls', true, 1],
    ]);
    expect(cmds[0]?.nesting.map((f) => f.kind)).toEqual(['shell-c']);
  });

  it('marks xargs commands as taking args from stdin', () => {
    const cmds = analyzeCommand('find . -name "*.o" | xargs -0 rm -f').commands;
    expect(cmds[1]?.argv).toEqual(['rm', '-f']);
    expect(cmds[1]?.argsFromStdin).toBe(true);
    expect(cmds[1]?.nesting.map((f) => [f.kind, f.index])).toEqual([['pipeline', 1]]);
    expect(cmds[0]?.argsFromStdin).toBe(false);
  });

  it('extracts find -exec bodies and -delete', () => {
    const cmds = analyzeCommand('find . -type f -exec rm -f {} + -delete').commands;
    expect(cmds[0]?.name).toBe('find');
    expect(cmds[0]?.findDelete).toBe(true);
    expect(cmds[1]?.argv).toEqual(['rm', '-f', '{}']);
    expect(cmds[1]?.dynamic).toEqual([false, false, true]);
    expect(cmds[1]?.nesting.map((f) => f.kind)).toEqual(['find-exec']);
    expect(analyzeCommand('find . -name x').commands[0]?.findDelete).toBe(false);
  });

  it('runs substitutions before the command that uses them', () => {
    const cmds = analyzeCommand('echo $(date) && ls').commands;
    expect(cmds.map((c) => c.argv[0])).toEqual(['date', 'echo', 'ls']);
    expect(cmds[0]?.nesting.map((f) => f.kind)).toEqual(['and-or', 'substitution']);
    expect(cmds[2]?.nesting[0]).toMatchObject({ kind: 'and-or', index: 1, operator: '&&' });
  });

  it('carries redirections of compound commands on a carrier entry first', () => {
    const cmds = analyzeCommand('{ echo a; echo b; } > out').commands;
    expect(cmds[0]?.argv).toEqual([]);
    expect(cmds[0]?.nesting.map((f) => f.kind)).toEqual(['redirected']);
    expect(cmds[0]?.redirects[0]?.target).toBe('out');
    expect(cmds.slice(1).map((c) => c.argv.join(' '))).toEqual(['echo a', 'echo b']);
  });

  it('keeps redirections of an unwrapped shell', () => {
    const cmds = analyzeCommand("bash -c 'echo hi' > log").commands;
    expect(cmds[0]?.redirects[0]?.target).toBe('log');
    expect(cmds[1]?.argv).toEqual(['echo', 'hi']);
  });

  it('marks subshells, pipelines and background as isolated', () => {
    const cmds = analyzeCommand('(cd a); cd b | cat; cd c &').commands;
    expect(cmds.map((c) => c.nesting.some((f) => f.isolated))).toEqual([true, true, true, true]);
    expect(analyzeCommand('{ cd a; }').commands[0]?.nesting.some((f) => f.isolated)).toBe(false);
  });

  it('names function frames', () => {
    const cmds = analyzeCommand(':(){ :|:& };:').commands;
    expect(cmds[0]?.nesting.find((f) => f.kind === 'function')?.name).toBe(':');
    expect(cmds).toHaveLength(3);
  });

  it('fails closed on dynamic shell bodies and eval', () => {
    for (const source of ['bash -c "$CMD"', 'eval "$x"', 'sh -c "$(curl x)"', 'env -S "$X"', 'cat list | xargs -I{} sh -c {}', 'cat cmds | parallel']) {
      const a = analyzeCommand(source);
      expect(a.complete, source).toBe(false);
      expect(
        a.commands.some((c) => c.opaque !== undefined),
        source,
      ).toBe(true);
    }
  });

  it('fails closed on parse errors but keeps what it could read', () => {
    const a = analyzeCommand('rm -rf x; if then fi');
    expect(a.complete).toBe(false);
    expect(a.errors.length).toBeGreaterThan(0);
    expect(a.commands[0]?.argv).toEqual(['rm', '-rf', 'x']);
  });

  it('reads a line the shell refuses as the nearest line it would run: leading operators dropped, an open quote closed', () => {
    expect(analyzeCommand('&& git reset --hard').commands.map((c) => c.argv.join(' '))).toEqual(['git reset --hard']);
    expect(analyzeCommand('|& git reset --hard').complete).toBe(true);
    const a = analyzeCommand('rm -rf x; echo "unterminated');
    expect(a.commands.map((c) => c.argv.join(' '))).toEqual(['rm -rf x', 'echo unterminated']);
  });

  it('sees what xargs and parallel run when the items are printed literally or listed after :::', () => {
    const argv = (s: string): string[] => analyzeCommand(s).commands.map((c) => c.argv.join(' '));
    expect(argv("echo / | xargs -I{} bash -c 'rm -rf {}'")).toEqual(['echo /', 'rm -rf /']);
    expect(argv("echo / | xargs --replace bash -c 'rm -rf {}'")).toEqual(['echo /', 'rm -rf /']);
    expect(argv('echo / | xargs -J {} rm -rf {}')).toEqual(['echo /', 'rm -rf /']);
    expect(argv("parallel ::: 'rm -rf /'")).toEqual(['rm -rf /']);
    expect(argv('parallel rm -rf {} ::: a b')).toEqual(['rm -rf a', 'rm -rf b']);
    expect(argv("echo 'git reset --hard' | parallel")).toEqual(['echo git reset --hard', 'git reset --hard']);
    expect(argv('echo ok | xargs rm -- -rf')).toEqual(['echo ok', 'rm -- -rf ok']);
    expect(analyzeCommand('echo ok | xargs rm -- -rf').commands[1]?.argsFromStdin).toBe(false);
  });

  it('splits env -S strings in place, and reads a command name printed by echo or which', () => {
    const argv = (s: string): string[] => analyzeCommand(s).commands.map((c) => c.argv.join(' '));
    expect(argv("env -S 'PATH=/bin git reset --hard'")).toEqual(['git reset --hard']);
    expect(argv('env -SPATH=/usr/bin git reset --hard')).toEqual(['git reset --hard']);
    expect(argv("env --split-string='rm -rf ~'")).toEqual(['rm -rf ~']);
    expect(argv('$(echo rm) -rf /')).toEqual(['echo rm', 'rm -rf /']);
    expect(argv('`which git` push -f')).toEqual(['which git', 'git push -f']);
    expect(argv('ssh -p 22 host git clean -f')).toEqual(['git clean -f']);
  });

  it('gives up on runaway nesting', () => {
    let source = 'rm x';
    for (let i = 0; i < 10; i++) source = `eval ${JSON.stringify(source)}`;
    const a = analyzeCommand(source);
    expect(a.complete).toBe(false);
    expect(a.errors).toEqual([]);
    expect(a.commands.map((c) => c.opaque)).toEqual(['nested too deeply to analyse']);
  });

  it('fails closed on a command name known only at run time', () => {
    const a = analyzeCommand('"$(cat name)" -rf /');
    expect(a.complete).toBe(false);
    expect(a.commands.map((c) => c.argv[0])).toEqual(['cat', '$(cat name)']);
    expect(a.commands[1]?.dynamic[0]).toBe(true);
  });

  it('looks into watch, which runs its operands through sh -c', () => {
    const cmds = analyzeCommand("watch -n 5 'rm -rf x; ls'").commands;
    expect(cmds.map((c) => c.argv.join(' '))).toEqual(['rm -rf x', 'ls']);
    expect(cmds[0]?.wrappers).toEqual(['watch']);
  });

  it('is complete for ordinary commands', () => {
    const a = analyzeCommand('git status && npm test -- --run | tee out.txt');
    expect(a.complete).toBe(true);
    expect(a.errors).toEqual([]);
    expect(a.commands).toHaveLength(3);
  });

  it('stays cheap on a typical command', () => {
    // Not a timing assertion: just that repeated analysis works and returns fresh, equal results.
    const source = 'cd src && GH_TOKEN=x gh pr view 12 --json title | jq -r .title > /tmp/t.txt';
    const first = analyzeCommand(source);
    for (let i = 0; i < 200; i++) expect(analyzeCommand(source).commands.length).toBe(first.commands.length);
  });
});
