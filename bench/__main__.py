import sys

if sys.argv[1:2] == ["e2e"]:
    from bench.e2e import main as e2e

    e2e(sys.argv[2:])
else:
    from bench.run import main

    main()
