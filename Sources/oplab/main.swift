print("oplab")
