// A throwaway certificate authority and a server certificate it signed, for the emulator's https (--tls): made
// fresh in a folder with openssl, valid for a day, for 127.0.0.1, ::1 and localhost. Clients trust the authority
// through its file (NODE_EXTRA_CA_CERTS), so nothing secret or lasting is ever committed or installed.
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface ThrowawayTls {
  /** The authority's certificate (PEM) file: what a client is told to trust. */
  caFile: string;
  /** The server's certificate and key (PEM). */
  cert: Buffer;
  key: Buffer;
}

const KEY = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

/** Makes the authority and the server certificate in `folder` (which must exist and be private to the caller). */
export async function makeThrowawayTls(folder: string): Promise<ThrowawayTls> {
  const file = (name: string): string => path.join(folder, name);
  const openssl = (args: string[]): Promise<unknown> =>
    run('openssl', args).catch((error: NodeJS.ErrnoException) => {
      throw new Error(
        error.code === 'ENOENT' ? 'openssl is not installed: --tls needs it to make a throwaway certificate.' : `openssl failed: ${error.message}`,
      );
    });
  await openssl([
    'req',
    '-x509',
    ...KEY,
    '-keyout',
    file('ca-key.pem'),
    '-out',
    file('ca.pem'),
    '-days',
    '1',
    '-subj',
    '/CN=MLSO emulator throwaway CA',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  ]);
  await openssl(['req', ...KEY, '-keyout', file('key.pem'), '-out', file('server.csr'), '-subj', '/CN=localhost']);
  await writeFile(file('server.ext'), 'subjectAltName=IP:127.0.0.1,IP:::1,DNS:localhost\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n');
  await openssl([
    'x509',
    '-req',
    '-in',
    file('server.csr'),
    '-CA',
    file('ca.pem'),
    '-CAkey',
    file('ca-key.pem'),
    '-CAcreateserial',
    '-out',
    file('cert.pem'),
    '-days',
    '1',
    '-extfile',
    file('server.ext'),
  ]);
  return { caFile: file('ca.pem'), cert: await readFile(file('cert.pem')), key: await readFile(file('key.pem')) };
}
