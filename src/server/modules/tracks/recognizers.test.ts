import { describe, expect, it } from 'vitest';
import { isrcOf, parseAcrCloudReply, parseAuddReply } from './recognizers';

describe("the recognisers' ISRC", () => {
  it('keeps a well-formed ISRC, upper-cased without hyphens, and nothing else', () => {
    expect(isrcOf('gb-aye-23-00001')).toBe('GBAYE2300001');
    expect(isrcOf('USUM71703861')).toBe('USUM71703861');
    expect(isrcOf('not an isrc')).toBeNull();
    expect(isrcOf('USUM7170386')).toBeNull();
    expect(isrcOf(null)).toBeNull();
  });

  it("reads it from AudD's Spotify or Apple Music part and from ACRCloud's external ids", () => {
    const audd = parseAuddReply({ status: 'success', result: { title: 'T', artist: 'A', spotify: { external_ids: { isrc: 'GBAYE2300001' } } } });
    expect(audd?.isrc).toBe('GBAYE2300001');
    const apple = parseAuddReply({ status: 'success', result: { title: 'T', artist: 'A', apple_music: { isrc: 'USUM71703861' } } });
    expect(apple?.isrc).toBe('USUM71703861');
    const acr = parseAcrCloudReply({
      status: { code: 0 },
      metadata: { music: [{ title: 'T', artists: [{ name: 'A' }], external_ids: { isrc: 'QZ-ES8-17-00001' } }] },
    });
    expect(acr?.isrc).toBe('QZES81700001');
    expect(parseAcrCloudReply({ status: { code: 0 }, metadata: { music: [{ title: 'T', artists: [{ name: 'A' }] }] } })?.isrc).toBeNull();
  });
});
