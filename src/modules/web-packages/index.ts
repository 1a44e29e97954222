import './web-package.policy';
import './web-package.type';
import './web-package.queries';
import './web-package.mutations';
