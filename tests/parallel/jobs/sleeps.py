"""Each worker writes its pid to ``pid_<RANK_ID>`` in argv[1], then sleeps (the test stops the launcher)."""
import os
import sys
import time

with open(os.path.join(sys.argv[1], f"pid_{os.environ['RANK_ID']}"), "w") as file:
    file.write(str(os.getpid()))
time.sleep(120)
