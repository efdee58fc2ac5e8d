// The one rule for a campaign's remembered download addresses after its server moved (campaign-addresses.ts): an
// address on a server the campaign was listed from before is rebuilt on the server it syncs against now; the
// current server's and any other host's stay as they are.
import { describe, expect, it } from 'vitest';
import { CampaignAddresses } from '../../../src-main/core/campaigns/campaign-addresses';

const REST = 'v1/download?obsday-id=10137&client=API&instrument=kcor&filename=20250324_210304_kcor_l2_pb.fts.gz';

describe('a campaign’s remembered addresses', () => {
  it('follow the server the campaign syncs against now when they are on one it was listed from before', () => {
    const addresses = new CampaignAddresses('https://mirror.example.org/mlso', ['http://api.mlso.ucar.edu', 'https://mirror.example.org/mlso']);
    expect(addresses.moved).toBe(true);
    expect(addresses.follow(`http://api.mlso.ucar.edu/${REST}`)).toBe(`https://mirror.example.org/mlso/${REST}`);
    expect(addresses.formerServerOf(`http://api.mlso.ucar.edu/${REST}`)).toBe('http://api.mlso.ucar.edu');
    // An http server on the default port is the same server as its https twin (as ApiServer holds).
    expect(addresses.follow(`https://api.mlso.ucar.edu/${REST}`)).toBe(`https://mirror.example.org/mlso/${REST}`);
  });

  it('stay as they are on the current server and on any other host', () => {
    const addresses = new CampaignAddresses('http://127.0.0.1:5001', ['http://127.0.0.1:5000']);
    for (const url of [
      `http://127.0.0.1:5001/${REST}`,
      // Another port of the same machine, one beginning with the former's digits, and another scheme on a port.
      `http://127.0.0.1:50000/${REST}`,
      `https://127.0.0.1:5000/${REST}`,
      `http://localhost:5000/${REST}`,
      `http://127.0.0.1:5000`,
      'relative/v1/download?filename=a.fts',
    ]) {
      expect(addresses.follow(url), url).toBe(url);
      expect(addresses.formerServerOf(url), url).toBeUndefined();
    }
    expect(addresses.follow(`http://127.0.0.1:5000/${REST}`)).toBe(`http://127.0.0.1:5001/${REST}`);
  });

  it('follow a server that moved to https, keeping the https addresses it handed out before', () => {
    const addresses = new CampaignAddresses('https://api.mlso.ucar.edu', ['http://api.mlso.ucar.edu']);
    expect(addresses.follow(`http://api.mlso.ucar.edu/${REST}`)).toBe(`https://api.mlso.ucar.edu/${REST}`);
    expect(addresses.follow(`https://api.mlso.ucar.edu/${REST}`)).toBe(`https://api.mlso.ucar.edu/${REST}`);
    expect(addresses.formerServerOf(`https://api.mlso.ucar.edu/${REST}`)).toBeUndefined();
  });

  it('take the longest base URL an address begins with as its server', () => {
    // Moved from a path under a server to the server's root: an address under the path was the former's.
    const addresses = new CampaignAddresses('http://h.example', ['http://h.example/mlso']);
    expect(addresses.follow(`http://h.example/mlso/${REST}`)).toBe(`http://h.example/${REST}`);
    expect(addresses.follow(`http://h.example/${REST}`)).toBe(`http://h.example/${REST}`);
    const back = new CampaignAddresses('http://h.example/mlso', ['http://h.example']);
    expect(back.follow(`http://h.example/mlso/${REST}`)).toBe(`http://h.example/mlso/${REST}`);
    expect(back.follow(`http://h.example/${REST}`)).toBe(`http://h.example/mlso/${REST}`);
  });

  it('change nothing for a campaign only ever listed from the current server', () => {
    const addresses = new CampaignAddresses('http://127.0.0.1:5000', ['http://127.0.0.1:5000']);
    expect(addresses.moved).toBe(false);
    expect(addresses.follow(`http://127.0.0.1:5000/${REST}`)).toBe(`http://127.0.0.1:5000/${REST}`);
  });
});
