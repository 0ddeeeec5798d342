# The Panda operational-space example's picture (tools/examples/panda_osc.c):
# left, the desired and the tracked TCP circle in the y-z plane; right, the
# position error over time.
#   panda_osc PANDA.urdf --csv panda_osc.csv
#   gnuplot -e "csv='panda_osc.csv'; png='docs/examples/panda_osc.png'" tools/examples/panda_osc.gp
set terminal pngcairo size 1100,480 font ',11'
set output png
set datafile separator ','
set key autotitle columnhead
set multiplot layout 1,2
set title 'TCP in the y-z plane'
set xlabel 'y [m]'
set ylabel 'z [m]'
set size ratio -1
set key center center
plot csv using 'yd':'zd' with lines lw 6 lc rgb '#bbbbbb' title 'desired', \
     csv using 'y':'z' with lines lw 1.5 lc rgb '#1f77b4' title 'tracked'
set size noratio
set title 'position error |x - x_d|'
set xlabel 't [s]'
set ylabel 'error [µm]'
set key bottom right
plot csv using 't':(1e6*sqrt((column('x')-column('xd'))**2+(column('y')-column('yd'))**2+(column('z')-column('zd'))**2)) with lines lw 1.5 lc rgb '#d62728' title 'error'
unset multiplot
