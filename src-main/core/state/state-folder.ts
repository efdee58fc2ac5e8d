// Where the download ledger lives unless the user says otherwise; its own module so that help texts can name
// the folder without loading the engine.
import envPaths from 'env-paths';

/** The per-user data folder (e.g. ~/.local/share/mlso-downloader on Linux). */
export function defaultStateFolder(): string {
  return envPaths('mlso-downloader', { suffix: '' }).data;
}
