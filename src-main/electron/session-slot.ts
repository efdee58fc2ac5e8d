// The file the encrypted session is kept in: its own small electron-store file beside the preferences,
// so the preferences (rewritten whole by the core) never carry it.
import Store from 'electron-store';
import type { EncryptedSessionSlot } from './session-vault';

interface SessionFile {
  encryptedSession?: string;
}

const SESSION_FILE_NAME = 'session';

export function electronSessionSlot(folder: string): EncryptedSessionSlot {
  const store = new Store<SessionFile>({
    cwd: folder,
    name: SESSION_FILE_NAME,
    schema: { encryptedSession: { type: 'string', contentEncoding: 'base64' } },
    // A damaged file only costs a sign-in.
    clearInvalidConfig: true,
  });
  return {
    read: () => store.get('encryptedSession'),
    write: (ciphertextBase64) => store.set('encryptedSession', ciphertextBase64),
    clear: () => store.delete('encryptedSession'),
  };
}
