// The app needs no browser permissions (camera, notifications, geolocation...); copying text to the
// clipboard is the one thing a page may ask for.
import type { Session } from 'electron';

const ALLOWED_PERMISSIONS: ReadonlySet<string> = new Set(['clipboard-sanitized-write']);

export function denyPermissionRequests(session: Session): void {
  session.setPermissionRequestHandler((_contents, permission, callback) => callback(ALLOWED_PERMISSIONS.has(permission)));
  session.setPermissionCheckHandler((_contents, permission) => ALLOWED_PERMISSIONS.has(permission));
}
