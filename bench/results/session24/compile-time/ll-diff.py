import re,sys
def load(p):
    d={}
    for line in open(p):
        m=re.match(r'\s*(\d+)\s+\([^)]*\)\s+(\d+)\s+\([^)]*\)\s+(.*)$',line)
        if not m or m.group(3)=='(TOTAL)': continue
        n=re.sub(r'typefuzz_\w+::m\d+::','M::',m.group(3))
        d[n]=d.get(n,0)+int(m.group(1))
    return d
u=load(sys.argv[1]); a=load(sys.argv[2])
rows=sorted(((u.get(k,0)-a.get(k,0),u.get(k,0),a.get(k,0),k) for k in set(u)|set(a)),reverse=True)
print("total",sum(u.values()),sum(a.values()),"diff",sum(r[0] for r in rows))
for r in rows[:int(sys.argv[3]) if len(sys.argv)>3 else 40]: print(f"{r[0]:6d} {r[1]:6d} {r[2]:6d}  {r[3][:140]}")
