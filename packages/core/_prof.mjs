import { RE2JS } from "re2js";

const int = (max) => Math.floor(Math.random() * max);
const tags = [];
for (let i = 0; i < 100000; i++) {
  const v = `${int(8)}.${int(30)}.${int(50)}`;
  switch (i % 4) {
    case 0:
      tags.push(v);
      break;
    case 1:
      tags.push(`v${v}-rc.${int(20)}`);
      break;
    case 2:
      tags.push(
        `main-${int(0x10000000).toString(16).padStart(7, "0")}-${1_600_000_000 + int(200_000_000)}`,
      );
      break;
    default:
      tags.push(`${v}-alpine`);
  }
}
const re2 = RE2JS.compile("^v?(?P<v>[0-9]+\\.[0-9]+\\.[0-9]+)(-rc\\.[0-9]+)?$").re2();
const run = () => {
  let k = 0;
  for (const t of tags) if (re2.findSubmatchIndex(t)) k++;
  return k;
};
for (let i = 0; i < 5; i++) run();
let t = performance.now();
for (let i = 0; i < 10; i++) run();
console.log("with prefilter", ((performance.now() - t) / 10).toFixed(1));
console.log("prefilter:", re2.prefilter && JSON.stringify(re2.prefilter).slice(0, 200));
const saved = re2.prefilter;
re2.prefilter = null;
for (let i = 0; i < 5; i++) run();
t = performance.now();
for (let i = 0; i < 10; i++) run();
console.log("no prefilter", ((performance.now() - t) / 10).toFixed(1));
re2.prefilter = saved;
