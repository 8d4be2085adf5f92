import csv,sys,glob,collections,statistics,os
# usage: agg.py OUTDIR ; groups OUTDIR/<bin>-<round>/throughput.csv
out=sys.argv[1]
res=collections.defaultdict(lambda: collections.defaultdict(list))
for d in sorted(glob.glob(out+'/*-*')):
    name,rnd=os.path.basename(d).rsplit('-',1)
    sums=collections.defaultdict(lambda:[0,0,0.0])
    for row in csv.DictReader(open(d+'/throughput.csv')):
        s=sums[(row['workload'],row['tool'])]
        s[0]+=int(row['tests']); s[1]+=int(row['nodes']); s[2]+=float(row['seconds'])
    for (w,t),(te,no,se) in sums.items():
        if t!='typefuzz': continue
        q=sums[(w,'quickcheck')]
        res[name][w].append(((te/se)/(q[0]/q[2]), (no/se)/(q[1]/q[2]), no/te))
for name in res:
    for w in sorted(res[name]):
        v=res[name][w]
        print(f"{name:14s} {w:9s} tests {statistics.median(x[0] for x in v):.3f}  nodes {statistics.median(x[1] for x in v):.3f}  mean {statistics.median(x[2] for x in v):.2f}  rounds {' '.join(f'{x[0]:.2f}/{x[1]:.2f}' for x in v)}")
