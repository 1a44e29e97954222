import { readFileSync, writeFileSync } from 'node:fs';
import { buildSchema, parse, visit, TypeInfo, visitWithTypeInfo, isObjectType } from 'graphql';
const schema = buildSchema(readFileSync('schema.graphql', 'utf8'));
const node = schema.getType('Node');
const isNode = (t) => t && (t === node || (isObjectType(t) && t.getInterfaces().includes(node)));
let total = 0; const failed = [];
for (const file of process.argv.slice(2)) {
  let text = readFileSync(file, 'utf8');
  const edits = [];
  const re = /`((?:[^`\\]|\\.)*)`|'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)"/g;
  let m;
  while ((m = re.exec(text))) {
    const body = m[1] ?? m[2] ?? m[3];
    if (!/\bid\b/.test(body) || !/[{]/.test(body)) continue;
    const start = m.index + 1;
    // Interpolations become spaces of the same length, so positions stay those of the file.
    let masked = '';
    for (let i = 0; i < body.length; ) {
      if (body[i] === '$' && body[i + 1] === '{') {
        let depth = 0, j = i + 1;
        for (; j < body.length; j++) { if (body[j] === '{') depth++; else if (body[j] === '}' && --depth === 0) break; }
        masked += 'x' + ' '.repeat(j - i); i = j + 1;
      } else { masked += body[i]; i++; }
    }
    let doc;
    try { doc = parse(masked); } catch { if (/^\s*(query|mutation|subscription|fragment|\{)/.test(body)) failed.push(`${file}:${text.slice(0, m.index).split('\n').length}`); continue; }
    const typeInfo = new TypeInfo(schema);
    visit(doc, visitWithTypeInfo(typeInfo, {
      Field(field) {
        if (field.name.value !== 'id') return;
        if (!isNode(typeInfo.getParentType())) return;
        edits.push({ at: start + field.name.loc.start, end: start + field.name.loc.end, alias: !!field.alias });
      },
    }));
  }
  edits.sort((a, b) => b.at - a.at);
  for (const e of edits) text = text.slice(0, e.at) + (e.alias ? 'databaseId' : 'id: databaseId') + text.slice(e.end);
  total += edits.length;
  if (edits.length) console.log(file, edits.length);
  writeFileSync(file, text);
}
console.log('total', total, 'unparsed', failed);
