print("glmap")
