import { describe, expect, it } from 'vitest';
import { FolderAccessError, fileSystemCode, inPlainWords, onFolder } from '../../src-main/core/folder-errors';

describe('file-system error codes', () => {
  it('are read from errors that carry an E-code, and from nothing else', () => {
    const withCode = (code: unknown): Error => Object.assign(new Error('x'), { code });
    expect(fileSystemCode(withCode('EROFS'))).toBe('EROFS');
    expect(fileSystemCode(withCode('ENAMETOOLONG'))).toBe('ENAMETOOLONG');
    // zlib's and Node's own codes are not the file system's, nor are numbers or lower case.
    for (const code of ['Z_BUF_ERROR', 'ERR_STREAM_PREMATURE_CLOSE'.toLowerCase(), 'XEROFS', 'EROFS1', 'E', 28, undefined]) {
      expect(fileSystemCode(withCode(code)), String(code)).toBeUndefined();
    }
    // Only errors: a plain object with a code is not one.
    expect(fileSystemCode({ code: 'EROFS' })).toBeUndefined();
    expect(fileSystemCode('EROFS')).toBeUndefined();
    expect(fileSystemCode(new Error('EROFS: no code property'))).toBeUndefined();
  });

  it('are said in plain words; an unknown problem as it is', () => {
    expect(inPlainWords('EROFS')).toBe('read-only file system');
    expect(inPlainWords('EISDIR')).toBe('a folder of that name is in the way');
    expect(inPlainWords('the cable was pulled')).toBe('the cable was pulled');
  });
});

describe('a folder that cannot be made or written', () => {
  it('names the folder, the step, the reason and what to do', () => {
    expect(new FolderAccessError('/d', 'download', 'create', 'EACCES').message).toBe(
      'Cannot create the download folder /d (permission denied). Choose a folder you can write to.',
    );
    expect(new FolderAccessError('/s', 'state', 'write', 'EROFS').message).toBe(
      'Cannot write to the state folder /s (read-only file system). Make it writable, or use another --state-dir.',
    );
    expect(new FolderAccessError('/d', 'download', 'write', 'ENOSPC').message).toBe(
      'Cannot write to the download folder /d (the disk is full). Free some space or choose another folder.',
    );
  });

  it('onFolder turns file-system failures into that error and lets others through', async () => {
    await expect(onFolder('/d', 'download', 'create', () => Promise.reject(Object.assign(new Error('x'), { code: 'ENOTDIR' })))).rejects.toThrow(
      'Cannot create the download folder /d (a file is in the way on its path).',
    );
    const other = new Error('not a file-system problem');
    await expect(onFolder('/d', 'download', 'create', () => Promise.reject(other))).rejects.toBe(other);
    expect(await onFolder('/d', 'download', 'create', () => 7)).toBe(7);
  });
});
