# Hand-edited experiment variants of the tool's auto output for the sphere
# kernel: Adjacent runs marked by hand (never shipped). Usage: make_vec.py <gen> <outdir>
import os, shutil, sys
gen, out = sys.argv[1], sys.argv[2]
src = open(os.path.join(gen, 'distwar_kernels_bwd_auto/spheres_backward.cu')).read()

def must(s, old, new, count=1):
    assert s.count(old) == count, (old, s.count(old))
    return s.replace(old, new)

def geo(s):
    return must(s, '::distwar::Batch<float, 17, ::distwar::AlwaysSet<0, 14>> distwar_batch0;',
                '::distwar::Batch<float, 17, ::distwar::AlwaysSet<0, 14>, ::distwar::Adjacent<5, 17>> distwar_batch0;')

for name, f in [('e_v', geo)]:
    d = os.path.join(out, 'distwar_kernels_bwd_' + name)
    shutil.copytree(os.path.join(gen, 'distwar_kernels_bwd_auto'), d)
    open(os.path.join(d, 'spheres_backward.cu'), 'w').write(f(src))
