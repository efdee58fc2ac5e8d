// The version printed by `mlso-dl --version` and `about`; kept in step with package.json by a test.
export const CLIENT_VERSION = '0.1.0';
