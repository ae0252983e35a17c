import sys

if sys.argv[1:2] == ["e2e"]:
    from bench.e2e import main
elif sys.argv[1:2] == ["trace"]:
    from bench.trace import main
elif sys.argv[1:2] == ["profile"]:
    from bench.profile import main
else:
    from bench.run import main

    main(sys.argv[1:])
    sys.exit()
main(sys.argv[2:])
