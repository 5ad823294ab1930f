import { describe, expect, it } from 'vitest';
import { ListenersUnreadable, parseListClientDetails, parseListClients } from './icecast-listeners';

describe("Icecast's listener list (admin listclients)", () => {
  it('reads the connection ids of every listener on the mount', () => {
    const xml =
      '<?xml version="1.0"?>\n<icestats><source mount="/dhr1"><Listeners>2</Listeners>' +
      '<listener><IP>127.0.0.1</IP><UserAgent>VLC &lt;3&gt;</UserAgent><Connected>12</Connected><ID>8</ID></listener>' +
      '<listener><IP>::1</IP><UserAgent>node</UserAgent><Connected>0</Connected><ID> 15 </ID></listener></source></icestats>';
    expect([...parseListClients(xml)].sort()).toEqual(['15', '8']);
    expect(parseListClients('<icestats><source mount="/dhr2"><Listeners>0</Listeners></source></icestats>').size).toBe(0);
    expect(parseListClientDetails(xml)).toEqual([
      { id: '8', ip: '127.0.0.1', userAgent: 'VLC <3>', connectedS: 12 },
      { id: '15', ip: '::1', userAgent: 'node', connectedS: 0 },
    ]);
  });

  it('ignores an ID outside a listener and refuses what is not a listclients document', () => {
    expect(parseListClients('<icestats><source><ID>9</ID></source></icestats>').size).toBe(0);
    expect(() => parseListClients('<html><body><b>401 - Authentication Required</b></body></html>')).toThrow(ListenersUnreadable);
    expect(() => parseListClients('<'.repeat(300_000))).toThrow(ListenersUnreadable);
  });
});
