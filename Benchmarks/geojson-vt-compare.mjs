// Writes geojson-vt's tiles (and timings) for glmap's GeoJSON tiler to compare against
// (`Benchmarks/geojson-vt-compare.sh` runs this, then `glmap-bench geojson-tiles OUT`).
//
//   node Benchmarks/geojson-vt-compare.mjs GEOJSON_VT_DIR SHARED_DIR OUT_DIR [SUPERCLUSTER_DIR]
//
// Cases: every ../shared/scenes/data/*.geojson and render-suite/data/*.geojson under GL JS's
// default source options, once more with lineMetrics + generateId, and every inline GeoJSON
// source of the render suite's styles with its own maxzoom/buffer/tolerance/lineMetrics/generateId
// (as GL JS scales them: px × 8192/512). geojson-vt is run without GL JS's geojson-rewind pass, so
// glmap runs with `rewind: false`.
// Tiles: from z0 down to maxZoom, each zoom's candidates are the four children of the tiles kept
// at the zoom above (all of them null or not are recorded); up to CAP non-null ones, evenly spread
// in key order, are kept for the next zoom.
// Per case OUT_DIR/NNNN.json holds {name, options, data (a file path or inline), time}, and
// NNNN.expected one line per tile: "z/x/y<TAB>canonical features" (null for no tile).
// With SUPERCLUSTER_DIR (a supercluster 8 checkout whose `kdbush` import resolves), clustered
// cases too: places.geojson as the render suite's three clustered cases set it up (radius 25;
// radius 50 with clusterProperties max/sum of scalerank and any island; radius 40 with the filter
// featureclass == "cape") and cities.geojson (radius 50, and with generateId), under GL JS's
// supercluster options (maxZoom = source maxzoom − 1 = 17, minPoints 2, extent 8192, radius × 16).
import fs from 'node:fs';
import path from 'node:path';
import {pathToFileURL} from 'node:url';

const [gvtDir, sharedDir, outDir, scDir] = process.argv.slice(2);
if (!gvtDir || !sharedDir || !outDir) {
    console.error('usage: node geojson-vt-compare.mjs GEOJSON_VT_DIR SHARED_DIR OUT_DIR');
    process.exit(2);
}
const geojsonvt = (await import(pathToFileURL(path.join(gvtDir, 'src/index.js')).href)).default;
const CAP = 32;
const SCALE = 8192 / 512;

function glOptions(src) {
    const maxzoom = src.maxzoom !== undefined ? src.maxzoom : 18;
    return {
        maxZoom: Math.trunc(maxzoom),
        indexMaxZoom: 5,
        indexMaxPoints: 100000,
        tolerance: (src.tolerance !== undefined ? src.tolerance : 0.375) * SCALE,
        extent: 8192,
        buffer: (src.buffer !== undefined ? src.buffer : 128) * SCALE,
        lineMetrics: src.lineMetrics || false,
        generateId: src.generateId || false
    };
}

// JSON with object keys sorted (NaN and ±Infinity become null, as JSON.stringify writes them).
function canon(v) {
    if (Array.isArray(v)) return `[${v.map(canon).join(',')}]`;
    if (v && typeof v === 'object') {
        return `{${Object.keys(v).sort().map(k => `${JSON.stringify(k)}:${canon(v[k])}`).join(',')}}`;
    }
    if (v === undefined) return 'null';
    return JSON.stringify(v);
}

function dumpTile(tile) {
    if (!tile) return 'null';
    return canon(tile.features.map(f => ({t: f.type, id: f.id === undefined ? null : f.id, tags: f.tags || {}, g: f.geometry})));
}

function key(z, x, y) { return `${z}/${x}/${y}`; }

function tileList(index, maxZoom) {
    const ids = [[0, 0, 0]];
    let keep = [[0, 0, 0]];
    for (let z = 1; z <= maxZoom && keep.length; z++) {
        const candidates = [];
        for (const [, x, y] of keep) {
            for (const [dx, dy] of [[0, 0], [1, 0], [0, 1], [1, 1]]) candidates.push([z, 2 * x + dx, 2 * y + dy]);
        }
        candidates.sort((a, b) => a[2] - b[2] || a[1] - b[1]);
        ids.push(...candidates);
        const nonNull = candidates.filter(([cz, cx, cy]) => index.getTile(cz, cx, cy));
        keep = [];
        const n = Math.min(CAP, nonNull.length);
        for (let i = 0; i < n; i++) keep.push(nonNull[Math.floor(i * nonNull.length / n)]);
    }
    return ids;
}

function median(a) { const s = [...a].sort((p, q) => p - q); return s[Math.floor(s.length / 2)]; }

let caseNo = 0;
function writeCase(name, data, dataField, options, time) {
    let index;
    try {
        index = geojsonvt(data, options);
    } catch (e) {
        console.error(`${name}: geojson-vt failed (${e.message}); skipped`);
        return;
    }
    const ids = tileList(index, options.maxZoom);
    // Dump from a fresh index, asking in list order (as glmap will).
    const fresh = geojsonvt(data, options);
    const lines = ids.map(([z, x, y]) => `${key(z, x, y)}\t${dumpTile(fresh.getTile(z, x, y))}`);
    const record = {name, options, data: dataField, tiles: ids.length};
    if (time) {
        const runs = 5;
        const build = [], tiles = [];
        for (let r = 0; r < runs; r++) {
            const t0 = process.hrtime.bigint();
            const idx = geojsonvt(data, options);
            const t1 = process.hrtime.bigint();
            for (const [z, x, y] of ids) idx.getTile(z, x, y);
            const t2 = process.hrtime.bigint();
            build.push(Number(t1 - t0) / 1e6);
            tiles.push(Number(t2 - t1) / 1e6);
        }
        record.node = {buildMs: median(build), tilesMs: median(tiles), runs};
    }
    const stem = String(caseNo++).padStart(4, '0');
    fs.writeFileSync(path.join(outDir, `${stem}.json`), JSON.stringify(record));
    fs.writeFileSync(path.join(outDir, `${stem}.expected`), `${lines.join('\n')}\n`);
}

fs.mkdirSync(outDir, {recursive: true});
const files = [];
for (const dir of ['scenes/data', 'render-suite/data']) {
    const full = path.join(sharedDir, dir);
    if (!fs.existsSync(full)) continue;
    for (const f of fs.readdirSync(full).sort()) if (f.endsWith('.geojson')) files.push(path.join(full, f));
}
for (const file of files) {
    let data;
    try { data = JSON.parse(fs.readFileSync(file, 'utf8')); } catch (e) { console.error(`${file}: not JSON; skipped`); continue; }
    const scene = file.includes('/scenes/');
    writeCase(path.basename(file), data, {file}, glOptions({}), scene);
    writeCase(`${path.basename(file)} lineMetrics+generateId`, data, {file}, glOptions({lineMetrics: true, generateId: true}), false);
}

function walk(dir, out) {
    for (const e of fs.readdirSync(dir, {withFileTypes: true})) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) walk(p, out); else if (e.name === 'style.json') out.push(p);
    }
    return out;
}
const casesDir = path.join(sharedDir, 'render-suite/cases');
if (fs.existsSync(casesDir)) {
    for (const styleFile of walk(casesDir, []).sort()) {
        let style;
        try { style = JSON.parse(fs.readFileSync(styleFile, 'utf8')); } catch (e) { continue; }
        for (const [id, src] of Object.entries(style.sources || {})) {
            if (src.type !== 'geojson' || !src.data || typeof src.data !== 'object' || src.cluster) continue;
            const name = `${path.relative(casesDir, path.dirname(styleFile))} ${id}`;
            writeCase(name, src.data, {inline: src.data}, glOptions(src), false);
        }
    }
}
if (scDir) {
    const Supercluster = (await import(pathToFileURL(path.join(scDir, 'index.js')).href)).default;
    // GL JS's getSuperclusterOptions for clusterProperties {max: ["max", ["get", "scalerank"]],
    // sum: ["+", ["get", "scalerank"]], has_island: ["any", ["==", ["get", "featureclass"], "island"]]},
    // the expressions written out as the functions they evaluate to.
    const placesProperties = {
        max: [p => p.scalerank ?? null, (acc, p) => Math.max(acc, p.max)],
        sum: [p => p.scalerank ?? null, (acc, p) => acc + p.sum],
        has_island: [p => p.featureclass === 'island', (acc, p) => acc || p.has_island]
    };
    function withProperties(options, props) {
        if (!props) return options;
        const names = Object.keys(props);
        options.map = (pointProperties) => {
            const out = {};
            for (const k of names) out[k] = props[k][0](pointProperties);
            return out;
        };
        options.reduce = (accumulated, clusterProperties) => {
            for (const k of names) accumulated[k] = props[k][1](accumulated[k], clusterProperties);
        };
        return options;
    }
    const clusterCases = [
        ['render-suite/data/places.geojson', 25, null, null, false],
        ['render-suite/data/places.geojson', 50, 'places', null, false],
        ['render-suite/data/places.geojson', 40, null, 'cape', false],
        ['scenes/data/cities.geojson', 50, null, null, false],
        ['scenes/data/cities.geojson', 50, null, null, true]
    ];
    for (const [rel, radius, propsName, filterName, generateId] of clusterCases) {
        const file = path.join(sharedDir, rel);
        if (!fs.existsSync(file)) continue;
        let features = JSON.parse(fs.readFileSync(file, 'utf8')).features;
        if (filterName === 'cape') features = features.filter(f => f.properties.featureclass === 'cape');
        const cluster = {maxZoom: 17, minPoints: 2, extent: 8192, radius: radius * SCALE, generateId, properties: propsName, filter: filterName};
        const make = () => new Supercluster(withProperties({maxZoom: 17, minPoints: 2, extent: 8192, radius: radius * SCALE, log: false, generateId},
            propsName === 'places' ? placesProperties : null)).load(features);
        const index = make();
        const ids = tileList(index, 18);
        const fresh = make();
        const lines = ids.map(([z, x, y]) => `${key(z, x, y)}\t${dumpTile(fresh.getTile(z, x, y))}`);
        const record = {name: `${path.basename(file)} clustered r${radius}${propsName ? ` ${propsName}` : ''}${filterName ? ` filter ${filterName}` : ''}${generateId ? ' generateId' : ''}`,
            cluster, data: {file}, tiles: ids.length};
        const stem = String(caseNo++).padStart(4, '0');
        fs.writeFileSync(path.join(outDir, `${stem}.json`), JSON.stringify(record));
        fs.writeFileSync(path.join(outDir, `${stem}.expected`), `${lines.join('\n')}\n`);
    }
}
console.error(`geojson-vt: ${caseNo} cases written to ${outDir}`);
