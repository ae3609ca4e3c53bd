import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  artifactContentProblem,
  artifactDirname,
  artifactFilename,
  artifactGlob,
  artifactPath,
  checkArtifactDeclaration,
  globBase,
  isArtifactPathValid,
  mimeTypeOf,
} from './artifact';

const SHA1 = 'a'.repeat(40);

describe('artifactPath', () => {
  it.each([
    ['README.md', 'README.md'],
    ['./out/report.txt', 'out/report.txt'],
    ['out\\win.txt', 'out/win.txt'],
    ['a/b/c..d', 'a/b/c..d'],
  ])('keeps %s as %s', (raw, stored) => {
    expect(artifactPath(raw)).toBe(stored);
  });

  it.each([
    ['../secret', 'leave the working directory'],
    ['out/../../etc/passwd', 'leave the working directory'],
    ['/etc/passwd', 'relative'],
    ['C:/Windows', 'relative'],
    ['', '1 to 1024'],
    ['a//b', 'empty'],
    ['a/./b', 'empty'],
    ['a\nb', 'control'],
  ])('refuses %j: it says the path must not %s', (raw, why) => {
    expect(() => artifactPath(raw)).toThrow(why);
  });

  it('never accepts a path with a .. segment, whatever surrounds it', () => {
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[a-z.]{1,5}$/), { maxLength: 4 }), fc.nat(4), (parts, at) => {
        const segments = [...parts];
        segments.splice(Math.min(at, segments.length), 0, '..');
        expect(isArtifactPathValid(segments.join('/'))).toBe(false);
      }),
    );
  });
});

describe('names', () => {
  it.each([
    ['README.md', '.', 'README.md', 'text/markdown'],
    ['out/a/b.png', 'out/a', 'b.png', 'image/png'],
    ['out/noext', 'out', 'noext', 'application/octet-stream'],
  ])('%s: dirname %s, filename %s, type %s', (path, dirname, filename, type) => {
    expect(artifactDirname(path)).toBe(dirname);
    expect(artifactFilename(path)).toBe(filename);
    expect(mimeTypeOf(path)).toBe(type);
  });
});

describe('checkArtifactDeclaration', () => {
  const declaration = {
    path: 'a.txt',
    globPath: null,
    originalPath: null,
    mimeType: null,
    fileSize: 10,
    sha1sum: SHA1.toUpperCase(),
    sha256sum: null,
  };

  it('lowercases the checksums and guesses the type', () => {
    expect(checkArtifactDeclaration(declaration, 100)).toMatchObject({
      sha1sum: SHA1,
      mimeType: 'text/plain',
    });
  });

  it('refuses a size past the limit as too large', () => {
    expect(() => checkArtifactDeclaration({ ...declaration, fileSize: 101 }, 100)).toThrow(
      'the limit is 100',
    );
  });

  it.each([
    [{ sha1sum: 'abc' }, 'sha1sum'],
    [{ sha256sum: 'xyz' }, 'sha256sum'],
    [{ fileSize: -1 }, 'file_size'],
    [{ path: '../x' }, '..'],
  ])('refuses %j', (change, message) => {
    expect(() => checkArtifactDeclaration({ ...declaration, ...change }, 100)).toThrow(message);
  });
});

describe('artifactContentProblem', () => {
  const declared = { path: 'a', fileSize: 3, sha1sum: SHA1, sha256sum: 'b'.repeat(64) };
  const stored = { size: 3, sha1: SHA1, sha256: 'b'.repeat(64) };

  it('finds nothing when the bytes are what was declared', () => {
    expect(artifactContentProblem(declared, stored)).toBeNull();
  });

  it.each([
    [{ size: 4 }, 'the size'],
    [{ sha1: 'c'.repeat(40) }, 'the sha1sum'],
    [{ sha256: 'c'.repeat(64) }, 'the sha256sum'],
  ])('names what differs: %j', (change, what) => {
    expect(artifactContentProblem(declared, { ...stored, ...change })?.message).toContain(what);
  });
});

describe('artifactGlob', () => {
  it.each([
    ['*.txt', 'a.txt', true],
    ['*.txt', 'dir/a.txt', false],
    ['**/*.txt', 'dir/sub/a.txt', true],
    ['**/*.txt', 'a.txt', true],
    ['out/**', 'out/a/b', true],
    ['out/?.log', 'out/1.log', true],
    ['out/?.log', 'out/12.log', false],
    ['*.{png,jpg}', 'x.jpg', true],
    ['*.{png,jpg}', 'x.gif', false],
    ['a+b(1).txt', 'a+b(1).txt', true],
    ['./report.md', 'report.md', true],
  ])('%s matches %s: %s', (glob, path, matches) => {
    expect(artifactGlob(glob).test(path)).toBe(matches);
  });

  it.each([
    ['out/**/*.txt', 'out'],
    ['*.txt', ''],
    ['a/b/c.txt', 'a/b'],
    ['a/*/c.txt', 'a'],
  ])('starts the search of %s at %j', (glob, base) => {
    expect(globBase(glob)).toBe(base);
  });
});
