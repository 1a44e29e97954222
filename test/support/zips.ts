import yazl from 'yazl';

export interface ZipEntry {
  /** Ending in `/`: an empty folder. */
  name: string;
  data: Buffer | string;
  /** Unix mode, such as 0o120777 for a symbolic link. */
  mode?: number;
}

/** A zip built in memory with yazl (deflated entries, Unix modes). */
export async function buildZip(entries: ZipEntry[]): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const entry of entries) {
    if (entry.name.endsWith('/')) zip.addEmptyDirectory(entry.name);
    else zip.addBuffer(Buffer.from(entry.data), entry.name, entry.mode ? { mode: entry.mode } : {});
  }
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/**
 * yazl refuses unsafe names, as a careful zipper should; an attacker's zip is made by renaming an entry in the bytes
 * (its local header and central directory both hold the name). `from` and `to` must have the same length.
 */
export function renameEntry(zip: Buffer, from: string, to: string): Buffer {
  if (from.length !== to.length) throw new Error('renameEntry keeps lengths');
  const renamed = Buffer.from(zip);
  let found = 0;
  for (let at = renamed.indexOf(from); at !== -1; at = renamed.indexOf(from, at + 1), found++)
    renamed.write(to, at, 'latin1');
  if (found !== 2) throw new Error(`expected the name twice, found it ${found} times`);
  return renamed;
}

/** A small website: a page, a style sheet and a script in a folder. */
export const siteZip = () =>
  buildZip([
    {
      name: 'index.html',
      data: '<!doctype html><title>Lab</title><link rel="stylesheet" href="css/site.css"><script src="js/app.js"></script>',
    },
    { name: 'css/site.css', data: 'body { color: teal; }' },
    { name: 'js/app.js', data: 'console.log("lab");' },
  ]);

/** Rewrites the uncompressed size an entry's central directory record declares: a zip whose headers lie. */
export function declareSize(zip: Buffer, name: string, size: number): Buffer {
  const patched = Buffer.from(zip);
  for (
    let at = patched.indexOf('PK\x01\x02', 0, 'latin1');
    at !== -1;
    at = patched.indexOf('PK\x01\x02', at + 4, 'latin1')
  ) {
    const nameLength = patched.readUInt16LE(at + 28);
    if (patched.toString('latin1', at + 46, at + 46 + nameLength) === name) {
      patched.writeUInt32LE(size, at + 24);
      return patched;
    }
  }
  throw new Error(`no central directory record for ${name}`);
}
