// Each Slack user's Paperspace API key (and GraphQL access token), encrypted at rest. The first
// configured key seals; every configured key opens, and a record opened with an older key is sealed
// again with the first one, so a rotation completes as people use the bot (or at once: rotateAll).
// The Slack installations' bot tokens are sealed under keys derived from the same VAULT_KEY
// (installation-seal.ts), so verify() and rotateAll() cover them too: an old key can leave VAULT_KEY
// only once nothing at all is sealed under it. Nothing here logs, and no error message carries a secret.
import { hkdfSync } from 'node:crypto';
import { z } from 'zod';
import type { SlackInstallationRepository } from '../store/slack-installations.js';
import type { SlackUser } from '../store/slack-user.js';
import type { PaperspaceAccount, VaultEntry, VaultEntryRepository } from '../store/vault-entries.js';
import { seal, toVaultKeys, unseal, type VaultKey } from './envelope.js';
import { checkInstallations, createInstallationSeal, resealInstallations } from './installation-seal.js';
import { createOpenedCredentials } from './opened-credentials.js';
import { VaultError } from './vault-error.js';

export interface Credentials {
  apiKey: string;
  accessToken?: string;
}

export interface LinkedAccount extends PaperspaceAccount {
  linkedAt: number;
  updatedAt: number;
}

interface VaultStatus {
  /** People's linked keys. */
  records: number;
  /** Slack installations (OAuth mode). */
  installations: number;
  /**
   * Linked keys and installations still sealed with an older key; the old key can leave VAULT_KEY
   * once this is 0.
   */
  staleRecords: number;
}

export interface KeyVault {
  /** Ids of the configured keys, the sealing key first; safe to log. */
  readonly keyIds: readonly string[];
  /**
   * One key per configured key (the sealing key's first) for another purpose, derived with HKDF so that
   * the vault's own keys never leave it and a key derived for one purpose says nothing of another.
   */
  derivedKeys(purpose: string): Buffer[];
  /**
   * Start-up check: every record and every installation opens with a configured key. Throws otherwise;
   * never changes a record.
   */
  verify(): Promise<VaultStatus>;
  link(user: SlackUser, link: Credentials & { account: PaperspaceAccount }): Promise<void>;
  credentials(user: SlackUser): Promise<Credentials | undefined>;
  account(user: SlackUser): Promise<LinkedAccount | undefined>;
  /** credentials() and account() from one read of the person's record, for a request that needs both. */
  linked(user: SlackUser): Promise<{ credentials: Credentials; account: LinkedAccount } | undefined>;
  /** True if the user was linked. */
  unlink(user: SlackUser): Promise<boolean>;
  /** "••••1a2b": enough for a person to recognise their key, useless to anyone else. */
  maskedKey(user: SlackUser): Promise<string | undefined>;
  /**
   * Seals every record and every installation under an older key with the first key now; returns how
   * many it resealed.
   */
  rotateAll(): Promise<number>;
}

export interface KeyVaultDeps {
  /** VAULT_KEY decoded, in order: the first seals, all open. */
  keys: readonly Buffer[];
  store: { vaultEntries: VaultEntryRepository; slackInstallations: SlackInstallationRepository };
  now: () => number;
}

const credentialsSchema = z.object({ apiKey: z.string().min(1), accessToken: z.string().min(1).optional() });
const MASK = '••••';
// Below this length, four characters are too large a share of the key to show.
const MIN_LENGTH_TO_REVEAL_TAIL = 12;

const DERIVED_KEY_LABEL = 'paperspace-chatops derived key v1: ';

const who = (user: SlackUser) => `${user.teamId}/${user.userId}`;
const listed = (items: string[], shown = 10) =>
  items.length <= shown
    ? items.join(', ')
    : `${items.slice(0, shown).join(', ')} and ${items.length - shown} more`;
const plural = (count: number, noun: string) => `${count} stored ${noun}${count === 1 ? '' : 's'}`;

export function createKeyVault({ keys, store, now }: KeyVaultDeps): KeyVault {
  const [sealingKey, ...olderKeys] = toVaultKeys(keys);
  const byId = new Map([sealingKey, ...olderKeys].map((key) => [key.id, key]));
  const entries = store.vaultEntries;
  const configured = () => `VAULT_KEY holds key ids ${[...byId.keys()].join(', ')}`;
  const derivedKeys = (purpose: string) =>
    [sealingKey, ...olderKeys].map(({ key }) =>
      Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), `${DERIVED_KEY_LABEL}${purpose}`, 32)),
    );
  const installationSeal = createInstallationSeal({ derivedKeys });

  /** Opens an entry or explains, without secrets, why it cannot be opened. */
  const open = (entry: VaultEntry): { credentials: Credentials; key: VaultKey } | VaultError => {
    const key = byId.get(entry.sealed.keyId);
    if (key === undefined) {
      return new VaultError(
        'unknown_key',
        `The stored credentials of ${who(entry)} were encrypted with key id ${entry.sealed.keyId}, which VAULT_KEY ` +
          `does not contain (${configured()}). Add that key after the first one; the record was not changed.`,
      );
    }
    const plaintext = unseal(key, entry, entry.sealed);
    const parsed = plaintext && credentialsSchema.safeParse(JSON.parse(plaintext.toString('utf8')));
    plaintext?.fill(0);
    if (!parsed?.success) {
      return new VaultError(
        'tampered',
        `The stored credentials of ${who(entry)} failed authentication with key id ${key.id}: the record was ` +
          'altered or copied from another user. It was not changed; the user can run /ps login again.',
      );
    }
    return { credentials: parsed.data, key };
  };

  const reseal = async (entry: VaultEntry, credentials: Credentials) => {
    const plaintext = Buffer.from(JSON.stringify(credentials));
    const next = seal(sealingKey, entry, plaintext);
    plaintext.fill(0);
    return entries.reseal(entry, entry.sealed, next, now());
  };

  const openedBefore = createOpenedCredentials<Credentials>(now);
  const credentials = async (user: SlackUser): Promise<Credentials | undefined> => {
    const entry = await entries.get(user);
    return entry === undefined ? undefined : credentialsOf(entry);
  };

  const accountOf = (entry: VaultEntry): LinkedAccount => ({
    ...entry.account,
    linkedAt: entry.createdAt,
    updatedAt: entry.updatedAt,
  });

  async function credentialsOf(entry: VaultEntry): Promise<Credentials> {
    const kept = openedBefore.get(entry);
    if (kept !== undefined) return kept;
    const opened = open(entry);
    if (opened instanceof VaultError) throw opened;
    // Losing the reseal race means the user linked again meanwhile; the record is current anyway.
    if (opened.key !== sealingKey) await reseal(entry, opened.credentials);
    // Kept only as sealed by the first key: an entry under an older one is sealed again just above.
    else openedBefore.keep(entry, opened.credentials);
    return opened.credentials;
  }

  const verify = async (): Promise<VaultStatus> => {
    const all = await entries.list();
    const unknown = new Map<string, number>();
    const tampered: VaultEntry[] = [];
    let staleRecords = 0;
    for (const entry of all) {
      const opened = open(entry);
      if (opened instanceof VaultError && opened.code === 'unknown_key') {
        unknown.set(entry.sealed.keyId, (unknown.get(entry.sealed.keyId) ?? 0) + 1);
      } else if (opened instanceof VaultError) {
        tampered.push(entry);
      } else if (opened.key !== sealingKey) {
        staleRecords += 1;
      }
    }
    const problems: string[] = [];
    if (unknown.size > 0) {
      const count = [...unknown.values()].reduce((sum, n) => sum + n, 0);
      const ids = [...unknown].map(([id, n]) => (unknown.size === 1 ? id : `${id}: ${n}`)).join(', ');
      problems.push(
        `VAULT_KEY does not contain the key that encrypted ${plural(count, 'record')} (key id ${ids}). ` +
          `Add the old key after the new one (VAULT_KEY=new,old) so they can be read and re-encrypted; ${configured()}.`,
      );
    }
    const installations = await checkInstallations(installationSeal, store.slackInstallations);
    problems.push(...installations.problems.map((problem) => problem.message));
    if (tampered.length > 0) {
      problems.push(
        `${plural(tampered.length, 'record')} failed authentication although their key is configured ` +
          `(${listed(tampered.map(who))}): altered, or copied from another user. Those users can run /ps login again.`,
      );
    }
    if (problems.length > 0) {
      throw new VaultError(
        unknown.size > 0 || installations.problems.some((problem) => problem.code === 'unknown_key')
          ? 'unknown_key'
          : 'tampered',
        `${problems.join('\n')}\nNo record was changed.`,
      );
    }
    return {
      records: all.length,
      installations: installations.installations,
      staleRecords: staleRecords + installations.stale,
    };
  };

  return {
    keyIds: [...byId.keys()],

    derivedKeys,

    verify,

    async link(user, { apiKey, accessToken, account }) {
      const parsed = credentialsSchema.safeParse({ apiKey, accessToken });
      if (!parsed.success) {
        throw new VaultError(
          'bad_credentials',
          'The API key (and access token, when given) must not be empty.',
        );
      }
      const plaintext = Buffer.from(JSON.stringify(parsed.data));
      const sealed = seal(sealingKey, user, plaintext);
      plaintext.fill(0);
      openedBefore.forget(user);
      await entries.put(user, { sealed, account, at: now() });
    },

    credentials,

    async account(user) {
      const entry = await entries.get(user);
      return entry && accountOf(entry);
    },

    async linked(user) {
      const entry = await entries.get(user);
      if (entry === undefined) return undefined;
      return { credentials: await credentialsOf(entry), account: accountOf(entry) };
    },

    unlink(user) {
      openedBefore.forget(user);
      return entries.delete(user);
    },

    async maskedKey(user) {
      const found = await credentials(user);
      if (found === undefined) return undefined;
      return found.apiKey.length < MIN_LENGTH_TO_REVEAL_TAIL ? MASK : `${MASK}${found.apiKey.slice(-4)}`;
    },

    async rotateAll() {
      await verify();
      let resealed = 0;
      for (const entry of await entries.list()) {
        const opened = open(entry);
        if (
          !(opened instanceof VaultError) &&
          opened.key !== sealingKey &&
          (await reseal(entry, opened.credentials))
        ) {
          resealed += 1;
        }
      }
      return resealed + (await resealInstallations(installationSeal, store.slackInstallations, now()));
    },
  };
}
