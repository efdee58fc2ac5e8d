// electron-store without Electron: electron-store 11 is `conf` plus a default folder taken from
// Electron's app object. With an explicit `cwd` (as the app always passes) the two behave the same,
// so the tests mock 'electron-store' with this class and exercise the real file handling and schema.
import Conf, { type Options } from 'conf';

type StoreOptions<T extends Record<string, unknown>> = Omit<Options<T>, 'configName'> & { name?: string };

export class ConfBackedStore<T extends Record<string, unknown>> extends Conf<T> {
  constructor({ name, ...options }: StoreOptions<T>) {
    if (!options.cwd) throw new Error('the desktop app always gives electron-store a folder');
    super({ ...options, configName: name ?? 'config' });
  }
}
