// v1 names regions by short ids (`ny2`); the world keeps the contract's names ("East Coast (NY2)").
// Requests may use either, answers use the id.
import { REGIONS, type Region } from '../../../src/paperspace/constants.js';
import { badRequest } from '../errors.js';

const REGION_IDS: Readonly<Record<Region, string>> = {
  'East Coast (NY2)': 'ny2',
  'West Coast (CA1)': 'ca1',
  'Europe (AMS1)': 'ams1',
};

export function regionId(region: Region): string {
  return REGION_IDS[region];
}

function regionFromV1(text: string): Region | null {
  const lower = text.trim().toLowerCase();
  return REGIONS.find((region) => REGION_IDS[region] === lower || region.toLowerCase() === lower) ?? null;
}

/** The id of the region a filter names (`ny2` or "East Coast (NY2)"); an unknown text as it is. */
export function asRegionId(text: string): string {
  const region = regionFromV1(text);
  return region === null ? text : regionId(region);
}

/** The region a request names, or a 400 that lists the ids. */
export function requireRegion(field: string, text: string): Region {
  const region = regionFromV1(text);
  if (region === null) {
    throw badRequest(
      `${field}: unknown region "${text}"; use one of ${Object.values(REGION_IDS).join(', ')}`,
    );
  }
  return region;
}
