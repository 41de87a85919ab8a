// A workspace's Slack installation (its bot token above all) at rest, sealed like people's Paperspace
// keys: AES-256-GCM under a key derived from VAULT_KEY for this purpose alone, bound to the installation's
// (enterprise, team) so a sealed row copied onto another workspace's fails to open. The first configured
// key seals and every configured key opens, so VAULT_KEY rotates installations as it rotates keys.
import type { SealedCredentials } from '../store/vault-entries.js';
import { sealBound, toVaultKeys, unsealBound } from './envelope.js';
import type { KeyVault } from './key-vault.js';
import { VaultError } from './vault-error.js';

const PURPOSE = 'slack installations';
const BINDING_LABEL = 'paperspace-chatops slack installation v1';

/** Who installed: a workspace (teamId), or a whole Enterprise Grid organisation (enterpriseId, no team). */
export interface InstallationKey {
  enterpriseId: string | undefined;
  teamId: string | undefined;
}

export interface InstallationSeal {
  seal(key: InstallationKey, plaintext: string): SealedCredentials;
  /** The plaintext; throws a VaultError naming the installation (never its contents) when it cannot open. */
  open(key: InstallationKey, sealed: SealedCredentials): string;
}

export function createInstallationSeal(vault: Pick<KeyVault, 'derivedKeys'>): InstallationSeal {
  const [sealingKey, ...olderKeys] = toVaultKeys(vault.derivedKeys(PURPOSE));
  const byId = new Map([sealingKey, ...olderKeys].map((key) => [key.id, key]));
  const binding = (key: InstallationKey) =>
    [BINDING_LABEL, key.enterpriseId ?? '', key.teamId ?? ''] as const;
  const named = (key: InstallationKey) =>
    [key.enterpriseId && `organisation ${key.enterpriseId}`, key.teamId && `workspace ${key.teamId}`]
      .filter(Boolean)
      .join(', ');
  return {
    seal: (key, plaintext) => sealBound(sealingKey, binding(key), Buffer.from(plaintext, 'utf8')),
    open(key, sealed) {
      const vaultKey = byId.get(sealed.keyId);
      if (vaultKey === undefined) {
        throw new VaultError(
          'unknown_key',
          `The Slack installation of ${named(key)} was sealed with a key VAULT_KEY no longer holds; put that key back, or install the app there again.`,
        );
      }
      const opened = unsealBound(vaultKey, binding(key), sealed);
      if (opened === undefined) {
        throw new VaultError(
          'tampered',
          `The Slack installation of ${named(key)} fails authentication (altered, or moved from another row); install the app there again.`,
        );
      }
      return opened.toString('utf8');
    },
  };
}
