// What can go wrong, as data: every front end (command line, Electron window, web mode) receives
// failures in this shape, so a person always sees the server's own words and a next step.

export type ErrorKind =
  | 'unknown-user' // the e-mail is not registered with the observatory
  | 'server' // the service answered with an error status
  | 'network' // the service could not be reached, timed out, or dropped the connection
  | 'invalid-input' // a value the user typed breaks a rule; nothing was sent
  | 'invalid-response' // the service answered, but not in the documented shape
  | 'session' // the download was refused for want of a valid session
  | 'download' // a file arrived but was not a complete FITS file, or could not be saved safely
  | 'disk-full' // no space left in the download folder
  | 'cancelled'
  | 'unsupported' // the front end cannot do this (e.g. open a folder from web mode)
  | 'internal'; // a fault in this program; the message says what to report

export interface ErrorData {
  kind: ErrorKind;
  /** One or two plain sentences that say what happened and what to do. */
  message: string;
  /** HTTP status, when the service answered. */
  status?: number;
  /** Where to register, for unknown users. */
  registrationUrl?: string;
  /** For invalid input: the setting the message is about (a form shows it at that field). */
  field?: string;
}
