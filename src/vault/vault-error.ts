// Failures of the key vault. Messages are written for the operator who runs the bot: they name key
// ids, counts and Slack users, and never contain a key, an API key or an access token.

export type VaultErrorCode =
  /** A record was sealed with a key VAULT_KEY does not contain. */
  | 'unknown_key'
  /** A record failed authentication: altered, or moved from another user's row. */
  | 'tampered'
  /** The keys given to the vault are unusable. */
  | 'bad_keys'
  /** Credentials handed to link() are unusable. */
  | 'bad_credentials';

export class VaultError extends Error {
  override readonly name = 'VaultError';
  constructor(
    readonly code: VaultErrorCode,
    message: string,
  ) {
    super(message);
  }
}
