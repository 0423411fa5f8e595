# The program's own sitecustomize, which gpuscope's hook shadows and must still run.
import os

os.environ["SHADOWED_SITECUSTOMIZE_RAN"] = "1"
