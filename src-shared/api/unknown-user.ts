// The one sentence every front end shows for an e-mail the service does not know.

/**
 * Where to register, named once; on the demo server, which answers only its own e-mail, that e-mail instead of a
 * registration that would not help there.
 */
export function unknownUserMessage(email: string, registrationUrl: string, demoEmail?: string): string {
  if (demoEmail !== undefined) {
    return `${email} is not registered on the demo server: sign in as ${demoEmail} (accounts for the real service are made at ${registrationUrl}).`;
  }
  return `${email} is not registered with the observatory: register it at ${registrationUrl}, then sign in again.`;
}
