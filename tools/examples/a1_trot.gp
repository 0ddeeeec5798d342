# The trotting A1's picture (tools/examples/a1_trot.c): left, the trunk's
# forward position over time against the 0.5 m the program asks for; right,
# the trunk's height against the 0.20 m floor it must stay above.
#   a1_trot A1.urdf --csv a1_trot.csv
#   gnuplot -e "csv='a1_trot.csv'; png='docs/examples/a1_trot.png'" tools/examples/a1_trot.gp
set terminal pngcairo size 1100,420 font ',11'
set output png
set datafile separator ','
set key autotitle columnhead
set multiplot layout 1,2
set title 'trunk forward position'
set xlabel 't [s]'
set ylabel 'x [m]'
set key top left
plot csv using 't':'x' with lines lw 2 lc rgb '#1f77b4' title 'trunk x', \
     0.5 with lines dt 2 lc rgb '#888888' title 'required at 5 s'
set title 'trunk height'
set ylabel 'z [m]'
set yrange [0.15:0.3]
set key bottom right
plot csv using 't':'z' with lines lw 1.5 lc rgb '#2ca02c' title 'trunk z', \
     0.20 with lines dt 2 lc rgb '#d62728' title 'lowest allowed'
unset multiplot
