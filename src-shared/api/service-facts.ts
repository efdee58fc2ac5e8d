// Facts about the MLSO data API that the client needs as defaults (from its published documentation).

export const DEFAULT_BASE_URL = 'http://api.mlso.ucar.edu';
export const DEFAULT_API_VERSION = 'v1';
/** Sent as the `client` query value on the files endpoint; the service echoes it inside download URLs. */
export const DEFAULT_CLIENT_NAME = 'mlso-downloader';
export const REGISTRATION_URL = 'https://registration.hao.ucar.edu';

/** The e-mail the bundled demo emulator accepts (documented in the README). */
export const DEMO_EMAIL = 'demo@example.com';

/**
 * Sent only by the bundled emulator with its refusal of an unknown e-mail, naming the e-mail it accepts: the real
 * service never sends it, so a client of the real service keeps pointing at the registration site.
 */
export const DEMO_EMAIL_HEADER = 'x-mlso-demo-email';
