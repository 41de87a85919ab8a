// One page of a list as a message: fetched with the asker's (or clicker's) key, rendered by the list
// builders, whose Prev/Next buttons carry the kind, the filters and the page to come back here.
import type { PaperspaceClient } from '../../paperspace/client.js';
import type { RequestOptions } from '../../paperspace/http.js';
import type { ListKind, PageValue } from '../../slack/block-kit/paging.js';
import type { SlackMessage } from '../../slack/block-kit/text.js';
import type { Interaction } from '../../slack/interaction.js';
import { machineList } from '../machines/blocks/machine-list.js';
import { type ViewerButtons, viewerButtons } from '../machines/machine-permissions.js';
import { resourceList } from './blocks/resource-list.js';
import { fetchListing, type ListingKind, type RawFilters } from './listings.js';
import { type NarrowByOwner, resolveOwnerFilter } from './owner-filter.js';

/** What drawing a page again uses: the viewer's buttons and the owner= filter. */
export type ListPageDeps = Parameters<typeof viewerButtons>[0];

// The service and the page buttons must name the same lists; this fails to compile if they drift.
const sameKinds: [ListingKind, ListKind] extends [ListKind, ListingKind] ? true : never = true;
void sameKinds;

export async function listMessage(
  client: PaperspaceClient,
  kind: ListingKind,
  filters: RawFilters,
  page: number,
  options?: RequestOptions & {
    /** The buttons the viewer can use on the listed machines (machine-permissions.ts' viewerButtons). */
    buttonsFor?: ViewerButtons;
    /** Keeps the listed machines an `owner=` filter names (v1, where Paperspace cannot filter them). */
    narrow?: NarrowByOwner;
    /** The filters as typed (`owner=@sam`), shown and carried by Prev/Next; `filters` as sent. */
    shown?: RawFilters;
  },
): Promise<SlackMessage> {
  const { buttonsFor, narrow, shown, ...requestOptions } = options ?? {};
  const listing = await fetchListing(client, kind, filters, requestOptions);
  const request = { page, filters: { ...(shown ?? filters) } };
  switch (listing.kind) {
    case 'machines': {
      const kept = narrow ? await narrow(listing.items) : { machines: listing.items, ownerOf: undefined };
      return machineList(kept.machines, request, await buttonsFor?.(kept.machines, kept.ownerOf));
    }
    case 'templates':
      return resourceList('templates', listing.items, request);
    case 'users':
      return resourceList('users', listing.items, request);
    case 'networks':
      return resourceList('networks', listing.items, request);
    case 'scripts':
      return resourceList('scripts', listing.items, request);
    case 'drives':
      return resourceList('drives', listing.items, request);
  }
}

/**
 * A page as a Prev/Next button (or a row of a list) names it, drawn for the person who clicked, with
 * their key and the buttons they may use; undefined when they have no linked key (they were told).
 */
export async function pageFor(
  clicker: Interaction,
  value: PageValue,
  deps: ListPageDeps,
): Promise<SlackMessage | undefined> {
  const linked = await clicker.linkedClient();
  if (linked === undefined) return undefined;
  const { client, account } = linked;
  // The role is read beside the machine list and kept per team (machine-permissions.ts), so a page
  // costs one Paperspace call, as the list did.
  const buttonsFor =
    value.kind === 'machines' ? viewerButtons(deps, { user: clicker.user, client, account }) : undefined;
  const owner =
    value.kind === 'machines'
      ? await resolveOwnerFilter(clicker, deps, linked, value.filters)
      : { sent: value.filters };
  return listMessage(client, value.kind, owner.sent, value.page, {
    ...(buttonsFor && { buttonsFor }),
    ...(owner.narrow && { narrow: owner.narrow }),
    shown: value.filters,
  });
}
