// Serves the renderer's build (dist/renderer) read-only: no listing, no path escaping the folder.
import { readFile } from 'node:fs/promises';
import path from 'node:path';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
};

export interface StaticFile {
  body: Buffer;
  contentType: string;
}

/** The file for a URL path, or undefined (not found, or outside the folder). `/` is index.html. */
export async function staticFile(root: string, urlPath: string): Promise<StaticFile | undefined> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  const relative = decoded === '/' || decoded === '' ? 'index.html' : decoded.replace(/^\/+/, '');
  // Resolved, so the containment check below compares absolute paths even when the root is relative.
  const folder = path.resolve(root);
  const file = path.resolve(folder, relative);
  if (file !== folder && !file.startsWith(folder + path.sep)) return undefined;
  try {
    return { body: await readFile(file), contentType: CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream' };
  } catch {
    return undefined;
  }
}
