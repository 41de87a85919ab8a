// A workspace's Slack installation (its bot token above all) at rest, sealed like people's Paperspace
// keys: AES-256-GCM under a key derived from VAULT_KEY for this purpose alone, bound to the installation's
// (enterprise, team) so a sealed row copied onto another workspace's fails to open. The first configured
// key seals and every configured key opens, so VAULT_KEY rotates installations as it rotates keys: an
// installation opened under an older key is sealed again (installation-store.ts), and the vault's
// verify() and rotateAll() cover installations as they cover people's keys.

import type { SealedCredentials } from '../store/sealed-rows.js';
import type { SlackInstallationRepository } from '../store/slack-installations.js';
import { sealBound, toVaultKeys, unsealBound } from './envelope.js';
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
  /** False when `sealed` is under an older key than the one that seals now: it should be sealed again. */
  isCurrent(sealed: SealedCredentials): boolean;
}

/** The vault's keys for one purpose (KeyVault.derivedKeys), the sealing key's first. */
interface DerivedKeySource {
  derivedKeys(purpose: string): Buffer[];
}

export function createInstallationSeal(vault: DerivedKeySource): InstallationSeal {
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
    isCurrent: (sealed) => sealed.keyId === sealingKey.id,
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

interface InstallationCheck {
  installations: number;
  /** Installations still sealed under an older key. */
  stale: number;
  /** Why some installation cannot be opened with the configured keys, one error each. */
  problems: VaultError[];
}

/** The start-up check of every installation's seal (KeyVault.verify); changes nothing. */
export async function checkInstallations(
  seal: InstallationSeal,
  installations: Pick<SlackInstallationRepository, 'list'>,
): Promise<InstallationCheck> {
  const rows = await installations.list();
  const problems: VaultError[] = [];
  let stale = 0;
  for (const row of rows) {
    try {
      seal.open(row, row.sealed);
      if (!seal.isCurrent(row.sealed)) stale += 1;
    } catch (error) {
      if (!(error instanceof VaultError)) throw error;
      problems.push(error);
    }
  }
  return { installations: rows.length, stale, problems };
}

/** Seals every installation under an older key again with the current one; answers how many it did. */
export async function resealInstallations(
  seal: InstallationSeal,
  installations: Pick<SlackInstallationRepository, 'list' | 'reseal'>,
  at: number,
): Promise<number> {
  let resealed = 0;
  for (const row of await installations.list()) {
    if (seal.isCurrent(row.sealed)) continue;
    const next = seal.seal(row, seal.open(row, row.sealed));
    if (await installations.reseal(row, row.sealed, next, at)) resealed += 1;
  }
  return resealed;
}
