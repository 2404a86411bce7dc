def Popen(argv):
    return argv
