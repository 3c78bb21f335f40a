// Tests for writeTargets: which paths a command may write, with cd tracking and honest unknowns.
import { beforeAll, describe, expect, it } from 'vitest';
import { writeTargets } from '../../../src/core/shell/writes.js';
import { loadAllOnDemand } from '../../../src/core/on-demand.js';

// Rarely run writers live in the on-demand effects module (issue 30).
beforeAll(loadAllOnDemand);

/** Just the paths, for compact expectations. */
const paths = (source: string): string[] => writeTargets(source).targets.map((t) => t.path);

describe('writeTargets: known targets', () => {
  const CASES: ReadonlyArray<readonly [string, string[]]> = [
    ['echo x > out.txt', ['out.txt']],
    ['echo x >> log', ['log']],
    ['cmd &> all.log', ['all.log']],
    ['cmd &>> all.log', ['all.log']],
    ['cmd >| forced', ['forced']],
    ['exec 3<> rw.dat', ['rw.dat']],
    ['cmd >& both.log', ['both.log']],
    ['cmd 2> err.log', ['err.log']],
    ['{ a; b; } > grouped', ['grouped']],
    ["bash -c 'echo hi' > outer", ['outer']],
    ['echo x | tee a b', ['a', 'b']],
    ['echo x | tee -a ~/f', ['~/f']],
    ["sed -i 's/a/b/' f1 f2", ['f1', 'f2']],
    ["sed -i.bak -e 's/a/b/' f", ['f']],
    ["sed -n 's/a/b/p' f", []],
    ["perl -pi -e 's/a/b/' f", ['f']],
    ['cp a b', ['b']],
    ['cp a /abs/b', ['/abs/b']],
    ['cp -r src/ dest/', ['dest/']],
    ['cp -t outdir a b', ['outdir']],
    ['cp --target-directory=outdir a', ['outdir']],
    ['mv a b', ['b', 'a']],
    ['install -m 755 bin/x /usr/local/bin/x', ['/usr/local/bin/x']],
    ['install -d a b', ['a', 'b']],
    ['rsync -av src/ host:dst/', []],
    ['rsync -av --exclude .git src/ dst/', ['dst/']],
    ['ln -s /etc/passwd in_scope', ['in_scope']],
    ['ln -s /etc/passwd', ['passwd']],
    ['rm a b', ['a', 'b']],
    ['rm -rf build', ['build']],
    ['rmdir d', ['d']],
    ['unlink f', ['f']],
    ['shred -n 3 f', ['f']],
    ['truncate -s 0 f', ['f']],
    ['touch -d yesterday f', ['f']],
    ['mkdir -p a/b -m 700', ['a/b']],
    ['chmod +x run.sh', ['run.sh']],
    ['chown -R me:me dir', ['dir']],
    ['chmod --reference=a b', ['b']],
    ['dd if=/dev/zero of=disk.img bs=1M', ['disk.img']],
    ['git checkout -- a.ts b.ts', ['a.ts', 'b.ts']],
    ['git checkout .', ['.']],
    ['git restore src/x.ts', ['src/x.ts']],
    ['git -C sub restore x', ['sub/x']],
    ['git rm old.ts', ['old.ts']],
    ['git mv a b', ['a', 'b']],
    ['tar -xzf a.tgz -C out', ['out']],
    ['tar xzf a.tgz', ['.']],
    ['tar -czf backup.tgz src', ['backup.tgz']],
    ['unzip a.zip -d out', ['out']],
    ['unzip a.zip', ['.']],
    ['patch -o fixed.c < p.diff', ['fixed.c']],
    ['sort -o sorted.txt in.txt', ['sorted.txt']],
    ['curl -o page.html https://x.io', ['page.html']],
    ['wget -O f.tgz https://x.io/f.tgz', ['f.tgz']],
    ['npm install left-pad', ['package.json', 'package-lock.json', 'node_modules']],
    ['npm ci', ['node_modules']],
    ['pnpm add zod', ['package.json', 'pnpm-lock.yaml', 'node_modules']],
    ['yarn', ['package.json', 'yarn.lock', 'node_modules']],
    ['npm --prefix web install', ['web/package.json', 'web/package-lock.json', 'web/node_modules']],
    ['cargo add serde', ['Cargo.toml', 'Cargo.lock']],
    ['go mod tidy', ['go.mod', 'go.sum']],
    ['pip install -t vendor requests', ['vendor']],
    ['find build -name "*.o" -delete', ['build']],
    ['sudo tee /etc/hosts < hosts', ['/etc/hosts']],
    ['echo $(touch marker)', ['marker']],
    ["python -c \"open('x','w').write('1')\"", ['x']],
    ['python3 -c \'from pathlib import Path; Path("p.txt").write_text("x")\'', ['p.txt']],
    ["node -e \"require('fs').writeFileSync('out.json', '{}')\"", ['out.json']],
    ['ruby -e \'File.write("r.txt", 1)\'', ['r.txt']],
    ['perl -e \'open(my $f, ">", "o.txt")\'', ['o.txt']],
  ];
  it.each(CASES)('%j writes %j', (source, expected) => {
    expect(paths(source)).toEqual(expected);
  });
});

describe('writeTargets: cd tracking', () => {
  it.each([
    ['cd sub && echo x > f', ['sub/f']],
    ['cd sub; cd deeper && touch f', ['sub/deeper/f']],
    ['cd / && rm -rf x', ['/x']],
    ['cd /tmp && rm -rf x', ['/tmp/x']],
    ['cd && touch f', ['~/f']],
    ['cd ~/proj && touch f', ['~/proj/f']],
    ['cd sub && echo x > ../outside', ['sub/../outside']],
    ['cd sub && echo x > /abs', ['/abs']],
    ['(cd sub && touch a); touch b', ['sub/a', 'b']],
    ['cd sub | true; touch b', ['b']],
    ['cd sub & touch b', ['b']],
    ['{ cd sub; touch a; }; touch b', ['sub/a', 'sub/b']],
    ['cd a && (cd b && touch x) && touch y', ['a/b/x', 'a/y']],
    ["bash -c 'cd inner && touch x'; touch y", ['inner/x', 'y']],
    ['cd ./sub/ && touch ./f', ['sub/f']],
  ] as const)('%j writes %j', (source, expected) => {
    expect(paths(source)).toEqual(expected);
  });

  it('reports relative writes after cd to an unknown dir as unknown, absolute ones still known', () => {
    const r = writeTargets('cd "$DIR" && touch rel /abs');
    expect(r.targets.map((t) => t.path)).toEqual(['/abs']);
    expect(r.unknown).toHaveLength(1);
    expect(r.unknown[0]?.why).toMatch(/relative to a directory that is not known/);
  });
});

describe('writeTargets: scope-escape attempts', () => {
  it('keeps ../ and absolute and ~ paths visible', () => {
    expect(paths('echo x > ../outside')).toEqual(['../outside']);
    expect(paths('cp a /abs/b')).toEqual(['/abs/b']);
    expect(paths('tee -a ~/f < in')).toEqual(['~/f']);
    expect(paths('cd / && rm -rf x')).toEqual(['/x']);
  });

  it('reports the link name of a symlink to a sensitive file', () => {
    const r = writeTargets('ln -s /etc/passwd in_scope');
    expect(r.targets).toEqual([{ path: 'in_scope', via: 'ln' }]);
  });

  it('sees python inline writes and says why when it cannot', () => {
    expect(writeTargets("python -c \"open('x','w')\"").targets).toEqual([{ path: 'x', via: 'python inline code' }]);
    const r = writeTargets('python -c "import os; os.remove(name)"');
    expect(r.writes).toBe(true);
    expect(r.targets).toEqual([]);
    expect(r.unknown[0]?.why).toMatch(/inline code may write/);
    expect(writeTargets('python3 -c "print(1+1)"').writes).toBe(false);
  });

  it('sees writes hidden in wrappers and nested shells', () => {
    expect(paths("sudo sh -c 'echo x > /etc/cron.d/job'")).toEqual(['/etc/cron.d/job']);
    expect(paths("eval 'rm -f ../x'")).toEqual(['../x']);
    expect(paths('env A=1 nohup cp a ../b')).toEqual(['../b']);
  });
});

describe('writeTargets: writers named by class (issue 15)', () => {
  it.each([
    ['gcc -o /abs/bin/app main.c', ['/abs/bin/app']],
    ['cc -c src/a.c src/b.c', ['a.o', 'b.o']],
    ['gcc main.c', ['a.out']],
    ['split -l 100 big.txt parts/chunk-', ['parts/chunk-aa']],
    ['split big.txt', ['xaa']],
    ['xxd -r dump.hex out.bin', ['out.bin']],
    ['zip -r dist/app.zip src', ['dist/app.zip']],
    ['zip -m archive a.txt', ['archive.zip', 'a.txt']],
    ['curl -o out.json https://x.io/a', ['out.json']],
    ['curl -D headers.txt -c cookies.txt https://x.io', ['headers.txt', 'cookies.txt']],
    ['curl -O https://x.io/f.tgz', ['f.tgz']],
    ['curl --output-dir dl -O https://x.io/f.tgz', ['dl/f.tgz']],
    ['wget https://x.io/f.tgz', ['f.tgz']],
    ['wget https://x.io/', ['index.html']],
    ['wget -P vendor https://x.io/lib.js', ['vendor/lib.js']],
    ['git worktree add ../wt-fix fix', ['../wt-fix']],
    ['git clone https://github.com/me/app.git', ['app']],
    ['git clone git@host:me/app.git /abs/app', ['/abs/app']],
    ['git init', ['.']],
    ['ln ../outside/secret.txt inside.txt', ['inside.txt', '../outside/secret.txt']],
    ['ln -s ../outside/secret.txt inside.txt', ['inside.txt']],
    ['env --chdir=/abs/dir rm f', ['/abs/dir/f']],
    ['sqlite3 data/app.db "INSERT INTO t VALUES (1)"', ['data/app.db']],
    ["awk -i inplace '{ print }' a.txt", ['a.txt']],
  ] as const)('%j writes %j', (source, expected) => {
    const r = writeTargets(source);
    expect(r.unknown).toEqual([]);
    expect(r.targets.map((t) => t.path)).toEqual(expected);
  });

  it('a pattern is a write under its literal directory part', () => {
    expect(writeTargets('rm src/*.log').targets).toEqual([expect.objectContaining({ path: 'src', tree: true })]);
    expect(writeTargets('tar xzf a.tgz').targets).toEqual([expect.objectContaining({ path: '.', tree: true })]);
  });

  it.each([
    'git stash',
    'git stash pop',
    'git pull',
    'git checkout -',
    'git checkout main',
    'git switch main',
    'git merge x',
    'git reset --hard',
    'wget -r https://x.io/docs/',
  ])('%j may rewrite the whole work tree', (source) => {
    const r = writeTargets(source);
    expect(r.unknown).toEqual([]);
    expect(r.targets).toEqual([expect.objectContaining({ path: '.', tree: true })]);
  });
});

describe('writeTargets: unknowns', () => {
  it.each([
    ['echo x > "$OUT"', /not known statically/],
    ['rm -f $(cat list)', /not known statically/],
    ['rm src/*/x.log', /pattern/],
    ['cp a "$DEST"', /not known statically/],
    ['git apply fix.patch', /inside the patch/],
    ['patch -p1 < fix.diff', /inside the patch/],
    ['pip install requests', /Python environment/],
    ['npm install -g typescript', /global/],
    ['curl -O https://x.io/', /without a file name/],
    // Unknown writers (issue 15): programs whose writes roz cannot name.
    ['awk \'{ print > "/abs/f" }\' in.txt', /program writes/],
    ['awk \'BEGIN { system("touch x") }\'', /program writes/],
    ["sed -n 'w out.txt' in.txt", /sed script writes/],
    ["sed 's/a/b/w changed.txt' in.txt", /sed script writes/],
    ['vim -es -c "wq" notes.txt', /from a script/],
    ['sqlite3 app.db ".backup /tmp/b.db"', /\.backup/],
    ['env --chdir="$D" rm f', /not known|chdir/],
    ['cd src/link/.. && rm f', /through \.\./],
    ['f() { cd /etc; }; f; echo x > passwd', /function changes directory/],
    ['source env.sh; echo x > y', /may change directory/],
    ['split --filter="sh -c cat" big.txt', /filter/],
    ['find . | xargs rm', /stdin/],
    ['find . -name "*.tmp" -exec rm {} \\;', /not known statically/],
    ['bash -c "$SCRIPT"', /not known statically/],
    ['$EDITOR notes.txt', /command name/],
    ["node -e 'fs.rmSync(process.argv[1])'", /inline code may write/],
    ['sed -i "s/a/b/" "$F"', /not known statically/],
  ] as const)('%j is unknown', (source, why) => {
    const r = writeTargets(source);
    expect(r.writes).toBe(true);
    expect(r.unknown.map((u) => u.why).join(' | ')).toMatch(why);
  });

  it('reports parse errors as unknown without claiming a write', () => {
    const r = writeTargets('rm x; if then fi');
    expect(r.unknown.length).toBeGreaterThan(0);
  });

  it('reads a line the shell refuses as the nearest one it would run (an open quote closed)', () => {
    expect(writeTargets('echo "unterminated')).toEqual({ targets: [], unknown: [], writes: false });
    expect(writeTargets("echo 'x > out.txt").targets).toEqual([]);
    expect(writeTargets('echo x > out.txt; echo "oops').targets.map((t) => t.path)).toEqual(['out.txt']);
  });
});

describe('writeTargets: project scripts and scratch (issue 22)', () => {
  it.each(['python3 src/w.py', 'bash src/w.sh', 'node scripts/gen.js --out x', 'awk -f prog.awk in.txt', 'sed -f edit.sed in.txt'])(
    '%j runs a program: no write roz asks about (the scope audit checks what it changed)',
    (source) => {
      expect(writeTargets(source)).toEqual({ targets: [], unknown: [], writes: false });
    },
  );

  it.each(['rm -rf $TMPDIR/x', 'rm -rf "${TMPDIR:-/tmp}/x"', 'echo x > ${TMPDIR}/out.txt', 'TMPDIR=/tmp/sub rm -rf $TMPDIR/x'])(
    '%j writes a temp path, marked as such',
    (source) => {
      const r = writeTargets(source);
      expect(r.unknown).toEqual([]);
      expect(r.targets.every((t) => t.temp === true)).toBe(true);
    },
  );

  it.each(['rm -rf $TMPDIR', 'rm -rf $TMPDIR/../x', 'rm -rf $TMPDIR/$X', 'TMPDIR=/Users rm -rf $TMPDIR/x', 'rm -rf $HOME/x'])('%j stays unknown', (source) => {
    expect(writeTargets(source).unknown.length).toBeGreaterThan(0);
  });
});

describe('writeTargets: read-only commands', () => {
  it.each([
    'ls -la',
    'cat a.txt',
    'git diff',
    'git status && git log --oneline | head',
    'grep -rn foo src',
    'echo hi',
    'echo hi >&2',
    'cmd 2>&1 | less',
    'cmd > /dev/null 2>&1',
    'cat < in.txt',
    'cat <<EOF\nhi\nEOF',
    'git checkout -b feature',
    'git restore --staged x',
    'git clean -n',
    'tar -tzf a.tgz',
    'unzip -l a.zip',
    'npm test',
    'npm run build',
    'curl https://x.io | jq .',
    'find . -name "*.ts"',
    'sed -n 1,5p f',
    'cd sub && ls',
    'python3 -m pytest -q',
    'node --version',
    "awk '{ print $1 }' data.txt",
    "sed -n 's/a/b/p' f",
    'gcc --version',
    'git switch -c fix',
    'git stash list',
  ])('%j writes nothing', (source) => {
    const r = writeTargets(source);
    expect(r).toEqual({ targets: [], unknown: [], writes: false });
  });
});
