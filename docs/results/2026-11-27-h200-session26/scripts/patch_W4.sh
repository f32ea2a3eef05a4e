patch -p1 -s < $1/.run/patch_W.diff
sed -i 's/#define APIARY_WAIT_POLLERS 8/#define APIARY_WAIT_POLLERS 4/; s/#define APIARY_WAIT_STAGGER 96/#define APIARY_WAIT_STAGGER 192/' schedulers/megakernel.cuh
