// @thi.ng/boids driven through its public API: murmur's peer for docs/performance.md (our driver;
// the package itself is installed from the npm registry outside the repository by tools/peers.sh).
// Scenario: murmur-bench's `uniform` (N boids in a cube of side cbrt(N / (30 / (4/3 pi))), view
// radius 1, separation 0.3, speed 1, dt 1/60), its behaviours cohesion(1), alignment(1),
// separation(0.3) with unit weights, a HashGrid3 of cell 1 from @thi.ng/geom-accel as the
// neighbour index, wrap3 keeping boids in the cube (the grid itself has no periodic images).
//
//   node thing_boids.mjs NODE_MODULES_DIR N [TICKS]   prints one JSON line
import { pathToFileURL } from "node:url";
import { readFileSync } from "node:fs";
import { join } from "node:path";

const [dir, nArg, tArg] = process.argv.slice(2);
const n = parseInt(nArg, 10), ticks = parseInt(tArg || "20", 10);
const load = (p) => import(pathToFileURL(join(dir, p, "index.js")).href);
const boids = await load("@thi.ng/boids");
const accel = await load("@thi.ng/geom-accel");
const version = (p) => JSON.parse(readFileSync(join(dir, p, "package.json"), "utf8")).version;

const box = Math.cbrt(n / (30 / ((4 / 3) * Math.PI)));
const grid = new accel.HashGrid3((b) => b.pos.curr, 1, n);
let seed = 1; // mulberry32: a small deterministic generator in 32-bit integer arithmetic
const rnd = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const opts = {
    accel: grid,
    behaviors: [boids.separation(0.3, 1), boids.alignment(1, 1), boids.cohesion(1, 1)],
    maxSpeed: 1,
    constrain: boids.wrap3([0, 0, 0], [box, box, box]),
};
const flock = boids.defFlock(grid);
for (let i = 0; i < n; i++) {
    const v = [rnd() - 0.5, rnd() - 0.5, rnd() - 0.5];
    flock.add(boids.defBoid3([rnd() * box, rnd() * box, rnd() * box], v, opts));
}
const ctx = { frame: 0, t: 0 };
const dt = 1 / 60;
flock.integrate(dt, ctx); // warm-up
const times = [];
for (let k = 0; k < ticks; k++) {
    const t0 = process.hrtime.bigint();
    flock.integrate(dt, ctx);
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
}
times.sort((a, b) => a - b);
console.log(JSON.stringify({
    peer: "@thi.ng/boids",
    version: `@thi.ng/boids ${version("@thi.ng/boids")}, @thi.ng/geom-accel ${version("@thi.ng/geom-accel")}, @thi.ng/vectors ${version("@thi.ng/vectors")}, Node.js ${process.version}`,
    n, ticks, ms_per_tick: times[Math.floor(times.length / 2)],
}));
