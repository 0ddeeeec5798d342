# The box-pushing arm's picture (tools/examples/arm_push_box.c): left, the
# top view: the path of the box's centre and of the arm's tip (0.73 m from
# the shoulder axis along the upper arm and forearm, at the shoulder yaw
# angle); right, the shoulder yaw and the box's yaw over time.
#   arm_push_box models/arm3_push_box.yaml --csv arm_push_box.csv
#   gnuplot -e "csv='arm_push_box.csv'; png='docs/examples/arm_push_box.png'" tools/examples/arm_push_box.gp
set terminal pngcairo size 1100,480 font ',11'
set output png
set datafile separator ','
set key autotitle columnhead
set multiplot layout 1,2
set title 'top view'
set xlabel 'x [m]'
set ylabel 'y [m]'
set size ratio -1
set xrange [-0.2:0.9]
set yrange [-0.1:0.9]
set key top right
plot csv using (0.73*cos(column('shoulder_yaw'))):(0.73*sin(column('shoulder_yaw'))) \
       with lines lw 1.5 dt 2 lc rgb '#888888' title 'arm tip', \
     csv using 'box_x':'box_y' with lines lw 2.5 lc rgb '#d62728' title 'box centre', \
     '+' using (0):(0) every ::0::0 with points pt 7 ps 1.5 lc rgb '#000000' title 'shoulder'
set size noratio
set autoscale
set title 'angles'
set xlabel 't [s]'
set ylabel '[deg]'
set key top left
plot csv using 't':(column('shoulder_yaw')*180/pi) with lines lw 2 lc rgb '#1f77b4' title 'shoulder yaw', \
     csv using 't':(column('box_yaw')*180/pi) with lines lw 2 lc rgb '#d62728' title 'box yaw'
unset multiplot
